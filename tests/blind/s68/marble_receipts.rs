use std::sync::Arc;

use idem_scope::{scoped, Problem};
use marble::Marble;
use thimble::auth::Caller;
use thimble::extract::RawBody;
use thimble::{Exchange, Reply, Status};

/// Receipts are kept in a marble object store addressed by u64 object ids; a
/// small index maps request keys to object ids.
pub struct ReceiptStore {
    pub heap: Arc<Marble>,
    pub index: Arc<cobble::vault::Vault>,
}

impl ReceiptStore {
    fn index_key(tenant: &str, user: &str, route: &str, raw: &str) -> Vec<u8> {
        let mut k = Vec::with_capacity(tenant.len() + user.len() + route.len() + raw.len() + 3);
        k.extend_from_slice(tenant.as_bytes());
        k.push(0x1f);
        k.extend_from_slice(user.as_bytes());
        k.push(0x1f);
        k.extend_from_slice(route.as_bytes());
        k.push(0x1f);
        k.extend_from_slice(raw.as_bytes());
        k
    }

    pub async fn upload(&self, ex: Exchange, caller: Caller, RawBody(body): RawBody) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let key = Self::index_key(&caller.tenant_id, &caller.user_id, "receipt.upload", raw);
        if let Some(id) = self.index.get(&key).await.map_err(|_| down())? {
            return Ok(Reply::bytes(Status::Ok, id));
        }
        let object_id = self.index.incr("receipt:next-object").await.map_err(|_| down())?;
        self.heap
            .write_batch([(object_id, Some(body.to_vec()))])
            .map_err(|_| down())?;
        self.index.put(&key, &object_id.to_be_bytes()).await.map_err(|_| down())?;
        Ok(Reply::status(Status::Created))
    }

    pub async fn fetch(&self, ex: Exchange, caller: Caller) -> Result<Reply, Reply> {
        let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::status(Status::BadRequest))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "receipt.upload", raw).map_err(|_| Reply::status(Status::BadRequest))?;
        let id = self.index.get(sk.storage_key()).await.map_err(|_| down())?.ok_or_else(|| Reply::status(Status::NotFound))?;
        let obj = self.heap.read(u64::from_be_bytes(id.try_into().unwrap_or_default())).map_err(|_| down())?;
        Ok(Reply::bytes(Status::Ok, obj.unwrap_or_default().to_vec()))
    }
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
