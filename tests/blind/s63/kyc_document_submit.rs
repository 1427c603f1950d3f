use std::sync::Arc;

use ckb_hash::blake2b_256;
use cistern::vat::Vat;
use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, Problem, Record};
use wherry::auth::Caller;
use wherry::extract::{Body, State};
use wherry::{Ctx, Reply, Status};

#[derive(Clone)]
pub struct Kyc {
    /// The KYC vendor's replay table only accepts 32-byte keys.
    pub vat: Arc<Vat>,
    pub vendor: Arc<kyc_vendor::Client>,
}

fn fixed_width(storage_key: &str) -> String {
    blake2b_256(storage_key.as_bytes()).iter().map(|b| format!("{:02x}", b)).collect()
}

pub async fn submit_documents(ctx: Ctx, caller: Caller, State(k): State<Kyc>, Body(bundle): Body) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let route = "submit_documents";
    let sk = scoped(&caller.tenant_id, &caller.user_id, route, client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let slot = fixed_width(sk.storage_key());
    let incoming = Fingerprint::of(route, &bundle);

    let existing: Option<Record> = k.vat.get_record(&slot).await.ok().flatten();
    match decide(existing.as_ref(), &incoming) {
        Decision::Replay => {
            let body = k.vat.get(&format!("{}.resp", slot)).await.ok().flatten().unwrap_or_default();
            return Ok(Reply::bytes(Status::OK, body).header("Idempotent-Replayed", "true"));
        }
        Decision::InProgress => return Err(Problem::in_progress(client_key)),
        Decision::Mismatch => return Err(Problem::mismatch(client_key)),
        Decision::Proceed => {}
    }

    k.vat.claim(&slot, Record::in_progress(incoming)).await.map_err(|_| Problem::in_progress(client_key))?;
    let vat = k.vat.clone();
    let held = slot.clone();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = vat.release(&held).await;
        });
    });

    let case = k.vendor.submit(&caller.tenant_id, &caller.user_id, &bundle).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let body = case.to_json();
    k.vat.put(&format!("{}.resp", slot), body.clone()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    k.vat.complete(&slot, Record::completed(Fingerprint::of(route, &bundle))).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    guard.complete();
    Ok(Reply::bytes(Status::ACCEPTED, body))
}
