//! Tap fee and system development charge quotes for developers' engineering firms.

use aquifer::pair::PairTank;
use idem_scope::scoped;
use penstock::badge::Partner;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct QuoteRequest {
    parcel: String,
    meter_size: String,
    fixture_units: u32,
}

pub async fn quote_tap_fee(intake: Intake, partner: Partner, pairs: &PairTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let entry = pairs.entry(&partner.org_id, key).await?;
    if let Some(prev) = entry.value() {
        return Ok(Outflow::replayed(prev));
    }
    let req: QuoteRequest = intake.json()?;
    let quote = crate::fees::calculator()
        .tap_fee(&partner.org_id, &req.parcel, &req.meter_size, req.fixture_units)
        .await?;
    let out = Outflow::json(Code::OK, &quote);
    entry.fill(&out).await?;
    Ok(out)
}

pub async fn accept_quote(intake: Intake, partner: Partner, pairs: &PairTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let scoped_key = scoped(&partner.org_id, &partner.api_key_id, "tap-fee-accept", key)?;
    let entry = pairs.entry(scoped_key.storage_key(), "accept").await?;
    if let Some(prev) = entry.value() {
        return Ok(Outflow::replayed(prev));
    }
    let quote_no = intake.param("quote_no").unwrap_or_default();
    let accepted = crate::fees::calculator().accept(&partner.org_id, quote_no).await?;
    let out = Outflow::json(Code::OK, &accepted);
    entry.fill(&out).await?;
    Ok(out)
}
