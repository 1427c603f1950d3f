//! Document uploads (packing lists, DG certificates, weighing slips) that
//! agents attach to a call. Files are stored content-addressed in the vault;
//! the upload itself is idempotent per client key.

use ballast::hold::Hold;
use ballast::vault::Vault;
use bytes::Bytes;
use hawser::extract::{RawBody, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, Fingerprint};
use sha2::{Digest, Sha256};

pub struct Documents {
    pub vault: Vault,
    pub replies: Hold,
    pub index: doc_index::Index,
}

/// Stores a file under its content address and returns the object path.
pub async fn store_blob(vault: &Vault, content: &Bytes) -> Result<String, Snag> {
    let address = hex::encode(Sha256::digest(content));
    let path = format!("docs/{}/{}", &address[..2], address);
    vault.put(&path, content).await?;
    Ok(path)
}

pub async fn upload(d: Shared<Documents>, a: Agent, call: Call, RawBody(raw): RawBody) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let route = call.route_template();
    let key = scoped(&a.account_id, &a.user_id, route, k).map_err(Snag::bad_request)?;
    let fingerprint = Fingerprint::of(route, &raw);

    if let Some(prev) = d.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let path = store_blob(&d.vault, &raw).await?;
    let doc = d.index.attach(&a.account_id, call.param("call").unwrap_or_default(), &path).await?;
    let answer = Answer::json(Status::CREATED, &doc);
    d.replies.put_fingerprint(key.storage_key(), fingerprint.as_bytes()).await?;
    d.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ballast::testing::MemHold;

    #[tokio::test]
    async fn upload_slot_shape() {
        let hold = MemHold::new();
        let call = hawser::testing::CallBuilder::post("/v1/docs").header("Idempotency-Key", "doc-1").build();
        let k = call.header("Idempotency-Key").unwrap();
        let slot = format!("acme:{k}");
        hold.put(&slot, b"{}").await.unwrap();
        assert!(hold.exists(&slot).await.unwrap());
    }
}
