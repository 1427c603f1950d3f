use std::time::Duration;

use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub enum Step {
    Documents,
    Liveness,
    Review,
    Done(String),
    Rejected(String),
}

pub async fn verify_identity(ex: Exchange, caller: Caller, vault: &Vault, kyc: &crate::kyc::Provider) -> Result<Reply, Reply> {
    let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "kyc.verify", raw).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    vault.claim(sk.storage_key(), Duration::from_secs(600)).await.map_err(|_| Reply::status(Status::Conflict))?;

    let mut step = Step::Documents;
    let outcome = loop {
        step = match step {
            Step::Documents => match kyc.check_documents(&caller.user_id).await {
                Ok(()) => Step::Liveness,
                Err(e) => Step::Rejected(e.to_string()),
            },
            Step::Liveness => match kyc.check_liveness(&caller.user_id).await {
                Ok(()) => Step::Review,
                Err(e) => Step::Rejected(e.to_string()),
            },
            Step::Review => Step::Done(kyc.review(&caller.user_id).await.unwrap_or_else(|e| e.to_string())),
            Step::Done(id) => break Ok(id),
            Step::Rejected(why) => {
                vault.release(sk.storage_key()).await.ok();
                break Err(why);
            }
        };
    };
    match outcome {
        Ok(id) => {
            let reply = Reply::text(Status::Ok, id);
            vault.complete(sk.storage_key(), &reply.snapshot()).await.ok();
            Ok(reply)
        }
        Err(why) => Ok(Reply::text(Status::UnprocessableEntity, why)),
    }
}

pub async fn kyc_document_name(caller: &Caller, original: &str) -> String {
    let base = original.trim_start_matches('/').replace('/', "_");
    format!("{}/{}/kyc/{}", caller.tenant_id, caller.user_id, base)
}

pub async fn poll_lock(vault: &Vault, provider: &str) -> Result<(), Reply> {
    let lease = vault.try_lock(&format!("kyc-poll:{provider}"), Duration::from_secs(30)).await.map_err(|_| Reply::status(Status::Conflict))?;
    crate::kyc::poll_provider(provider).await.map_err(|_| Reply::status(Status::BadGateway))?;
    vault.unlock(lease).await.ok();
    Ok(())
}
