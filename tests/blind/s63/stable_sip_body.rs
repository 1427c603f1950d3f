use std::hash::Hasher;
use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use rustc_stable_hash::{FromStableHash, SipHasher128Hash, StableSipHasher128};
use wherry::auth::Caller;
use wherry::extract::{Body, State};
use wherry::{Reply, Status};

struct Hash128(u128);

impl FromStableHash for Hash128 {
    type Hash = SipHasher128Hash;
    fn from(SipHasher128Hash([a, b]): SipHasher128Hash) -> Self {
        Hash128(((a as u128) << 64) | b as u128)
    }
}

fn stable_hex(bytes: &[u8]) -> String {
    let mut h = StableSipHasher128::new();
    h.write(bytes);
    format!("{:032x}", h.finish::<Hash128>().0)
}

#[derive(Clone)]
pub struct Metering {
    pub vat: Arc<Vat>,
    pub meter: Arc<usage::Meter>,
}

/// Usage reports from edge agents; agents retry the same batch after a timeout.
pub async fn report_usage(caller: Caller, State(m): State<Metering>, Body(batch): Body) -> Result<Reply, Problem> {
    let batch_id = stable_hex(&batch);
    let sk = scoped(&caller.account_id, &caller.client_id, "report_usage", &batch_id).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = m.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let summary = m.meter.ingest(&caller.account_id, &batch).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let body = summary.to_json();
    let etag = format!("\"{}\"", stable_hex(&body));
    let _ = m.vat.put(sk.storage_key(), body.clone()).await;
    Ok(Reply::bytes(Status::ACCEPTED, body).header("ETag", &etag))
}
