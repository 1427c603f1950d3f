//! Capture and void of card authorisations.

use granary::silo::Silo;
use idem_scope::{scoped, ClaimGuard, Problem};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

#[derive(Debug, displaydoc::Display)]
pub enum CaptureError {
    /// payment provider failed: {0}
    Psp(String),
    /// could not encode the response
    Encode,
    /// record store failed
    Store,
}

fn key_for(call: &Call, route: &str) -> Result<idem_scope::ScopedKey, Reply> {
    let m = call.ext::<Member>().ok_or_else(|| Reply::status(Status::Unauthorized))?;
    let k = call.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    scoped(&m.org_id, &m.user_id, route, k).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))
}

pub async fn capture(silo: &Silo, call: Call) -> Result<Reply, CaptureError> {
    let key = match key_for(&call, "auth.capture") { Ok(k) => k, Err(r) => return Ok(r) };
    match silo.claim(key.storage_key()).await {
        Ok(true) => {}
        Ok(false) => return Ok(Reply::problem(Problem::in_progress(key.storage_key()))),
        Err(_) => return Err(CaptureError::Store),
    }
    let auth = crate::psp::capture(call.body()).await.map_err(|e| CaptureError::Psp(e.to_string()))?;
    let bytes = serde_json::to_vec(&auth).map_err(|_| CaptureError::Encode)?;
    silo.complete(key.storage_key(), &bytes).await.map_err(|_| CaptureError::Store)?;
    Ok(Reply::bytes(Status::Ok, bytes))
}

pub async fn void(silo: &Silo, call: Call) -> Result<Reply, CaptureError> {
    let key = match key_for(&call, "auth.void") { Ok(k) => k, Err(r) => return Ok(r) };
    if !silo.claim(key.storage_key()).await.map_err(|_| CaptureError::Store)? {
        return Ok(Reply::problem(Problem::in_progress(key.storage_key())));
    }
    let guard = ClaimGuard::new({
        let silo = silo.clone();
        let k = key.storage_key().to_owned();
        move || {
            tokio::spawn(async move {
                let _ = silo.release(&k).await;
            });
        }
    });
    let out = crate::psp::void(call.body()).await.map_err(|e| CaptureError::Psp(e.to_string()))?;
    silo.complete(key.storage_key(), &out).await.map_err(|_| CaptureError::Store)?;
    guard.complete();
    Ok(Reply::bytes(Status::Ok, out))
}
