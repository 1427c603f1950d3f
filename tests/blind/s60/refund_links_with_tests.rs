use gimbal::{Ctx, Json, Reply};
use idem_scope::{scoped, Problem};
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::psp::{PspError, Psp};

#[derive(Deserialize)]
pub struct RefundLinkRequest {
    pub payment_id: String,
    pub amount_minor: i64,
}

pub struct RefundLinks {
    pub replays: Shelf,
    pub psp: Psp,
}

impl RefundLinks {
    pub async fn create(&self, ctx: Ctx, Json(req): Json<RefundLinkRequest>) -> Result<Reply, PspError> {
        let auth = ctx.auth();
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let key = scoped(&auth.tenant_id, &auth.user_id, "refund_links.create", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let link = self.psp.refund_link(&auth.tenant_id, &req.payment_id, req.amount_minor).await?;
        self.replays.put(key.storage_key(), &link.to_json()).await?;
        Ok(Reply::created(link.to_json()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gimbal::test::{ctx_with_headers, FakePsp};
    use pyxis::kv::MemoryShelf;

    fn fixture() -> RefundLinks {
        RefundLinks { replays: MemoryShelf::new().into(), psp: FakePsp::default().into() }
    }

    #[tokio::test]
    async fn replays_the_stored_link() {
        let links = fixture();
        let k = "test-key-1";
        links.replays.put(k, b"{\"url\":\"https://pay.example/r/1\"}").await.unwrap();
        let ctx = ctx_with_headers(&[("Idempotency-Key", k)]);
        let reply = links.create(ctx, Json(RefundLinkRequest { payment_id: "p1".into(), amount_minor: 100 })).await;
        assert!(reply.is_ok());
    }

    #[tokio::test]
    async fn stale_claims_do_not_block() {
        let links = fixture();
        let tenant_id = "anonymous";
        let key = scoped(tenant_id, "u1", "refund_links.create", "k2").unwrap();
        links.replays.claim(&key).await.unwrap();
        let link = links.psp.refund_link(tenant_id, "p2", 5).await.unwrap();
        links.replays.complete(&key, &link.to_json()).await.unwrap();
    }
}
