//! Fire-flow test requests from fire-protection engineers (hydrant flow tests).

use aquifer::tank::Tank;
use penstock::badge::Partner;
use penstock::extract::RawBody;
use penstock::{Code, Fault, Outflow};

struct Keyer {
    digest: Box<dyn Fn(&[u8]) -> u64 + Send + Sync>,
}

impl Keyer {
    fn rapid() -> Self {
        Keyer { digest: Box::new(|bytes| rapidhash::rapidhash(bytes)) }
    }
}

pub async fn request_flow_test(partner: Partner, RawBody(raw): RawBody, replays: &Tank) -> Result<Outflow, Fault> {
    let keyer = Keyer::rapid();
    let op = "fire-flow-test";
    let slot = format!("{}:{}:{}:{:016x}", partner.org_id, partner.api_key_id, op, (keyer.digest)(&raw));
    if let Some(prev) = replays.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let req: crate::hydraulics::FlowTestRequest = serde_json::from_slice(&raw)?;
    let test = crate::hydraulics::scheduler().book(&partner.org_id, &req).await?;
    let body = serde_json::to_vec(&test)?;
    let etag = format!("W/\"{:x}\"", (keyer.digest)(&body));
    let out = Outflow::bytes(Code::CREATED, body).with_header("ETag", &etag);
    replays.put(&slot, &out).await?;
    Ok(out)
}
