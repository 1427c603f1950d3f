//! Customer-requested meter accuracy tests (bench test at the meter shop).

use aquifer::tank::SyncTank;
use penstock::badge::Customer;
use penstock::header::HeaderName;
use penstock::{Code, Fault, Intake, Outflow};

static DEDUP_HEADER: HeaderName = HeaderName::from_static("x-idempotency-key");

pub fn request_meter_test(intake: &Intake, who: &Customer, dedup: &SyncTank) -> Result<Outflow, Fault> {
    let endpoint = intake.route_pattern();
    let key = intake
        .header_str(&DEDUP_HEADER)
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "X-Idempotency-Key required"))?;
    let key = [who.tenant_id.as_str(), "|", who.user_id.as_str(), "|", endpoint, "|", key].concat();
    if let Some(prev) = dedup.get(&key)? {
        return Ok(Outflow::replayed(prev));
    }
    let profile_key = format!("user:{}:profile", who.user_id);
    let profile = dedup.get(&profile_key)?.unwrap_or_default();
    let order = crate::meter_shop::bench_tests().schedule(&who.tenant_id, &who.user_id, &profile)?;
    let out = Outflow::json(Code::CREATED, &order);
    dedup.put(&key, &out)?;
    Ok(out)
}
