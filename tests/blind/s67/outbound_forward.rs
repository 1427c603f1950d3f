use awc::Client;
use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct PspForwarder {
    pub http: Client,
    pub kv: Kv,
    pub base_url: String,
}

impl PspForwarder {
    pub async fn forward_charge(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else { return Reply::status(Status::BAD_REQUEST) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "psp.forward", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let upstream_key = format!("{}-{}", caller.tenant_id, key);
        let resp = self
            .http
            .post(format!("{}/v1/charges", self.base_url))
            .insert_header(("Idempotency-Key", upstream_key.as_str()))
            .send_body(ctx.body().to_vec())
            .await;
        let Ok(mut resp) = resp else { return Reply::status(Status::BAD_GATEWAY) };
        let body = resp.body().await.map(|b| b.to_vec()).unwrap_or_default();
        self.kv.put(sk.storage_key(), body.clone()).await.ok();
        Reply::bytes(Status::CREATED, body)
    }
}

/// Page sizes accepted by list endpoints of this module.
pub(crate) fn clamp_page_size(requested: Option<u32>) -> u32 {
    match requested {
        Some(0) => 1,
        Some(n) if n > 200 => 200,
        Some(n) => n,
        None => 50,
    }
}

#[cfg(test)]
mod paging_tests {
    use super::clamp_page_size;

    #[test]
    fn page_size_bounds() {
        assert_eq!(clamp_page_size(Some(0)), 1);
        assert_eq!(clamp_page_size(Some(500)), 200);
    }

    #[test]
    fn page_size_default() {
        assert_eq!(clamp_page_size(None), 50);
        assert_eq!(clamp_page_size(Some(20)), 20);
    }
}
