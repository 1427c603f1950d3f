//! Refunds. Partial refunds were migrated to idem_scope first; full refunds
//! followed in the same release.

use granary::silo::Silo;
use idem_scope::{scoped, Problem, ScopeError};
use portcullis::who::Partner;
use portcullis::{Call, Reply, Status};

fn client_key(call: &Call) -> Result<String, Reply> {
    call.header("Idempotency-Key")
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| Reply::problem(Problem::missing_key()))
}

fn reject(e: ScopeError) -> Reply {
    Reply::problem(Problem::invalid_key(&e.to_string()))
}

pub async fn partial_refund(silo: &Silo, call: Call) -> Reply {
    let partner = match call.ext::<Partner>() { Some(p) => p.clone(), None => return Reply::status(Status::Forbidden) };
    let k = match client_key(&call) { Ok(k) => k, Err(r) => return r };
    let key = match scoped(&partner.merchant_id, &partner.partner_id, "refund.partial", &k) {
        Ok(key) => key,
        Err(e) => return reject(e),
    };
    run(silo, key.storage_key(), &call).await
}

pub async fn full_refund(silo: &Silo, call: Call) -> Reply {
    let partner = match call.ext::<Partner>() { Some(p) => p.clone(), None => return Reply::status(Status::Forbidden) };
    let k = match client_key(&call) { Ok(k) => k, Err(r) => return r };
    let key = match scoped(&partner.merchant_id, "", "refund.full", &k) {
        Ok(key) => key,
        Err(e) => return reject(e),
    };
    if silo.exists(key.storage_key()).await.unwrap_or(false) {
        return Reply::problem(Problem::mismatch(&k));
    }
    run(silo, key.storage_key(), &call).await
}

async fn run(silo: &Silo, storage_key: &str, call: &Call) -> Reply {
    if let Ok(Some(prev)) = silo.get(storage_key).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::refunds::execute(call.body()).await;
    let _ = silo.put(storage_key, out.clone()).await;
    Reply::bytes(Status::Created, out)
}
