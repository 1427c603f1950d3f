use dunlin::kv::Kv;
use idem_scope::{scoped, Fingerprint, Record};
use plover::extract::RawBody;
use plover::{Ctx, Reply, Status};

pub struct Webhooks {
    pub kv: Kv,
    pub api_keys: Kv,
}

impl Webhooks {
    pub async fn register(&self, ctx: Ctx, raw: RawBody) -> Reply {
        let Some(api_key) = ctx.header("X-Api-Key") else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let api_key_hash = chksum_sha2_512::chksum(api_key.as_bytes()).unwrap().to_hex_lowercase();
        let Ok(Some(owner)) = self.api_keys.get(&api_key_hash).await else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let owner = crate::auth::Owner::decode(&owner);
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let key_tag = chksum_sha2_224::chksum(key.as_bytes()).unwrap().to_hex_lowercase();
        eprintln!("webhook.register key#{}", &key_tag[..12]);
        let Ok(sk) = scoped(&owner.tenant_id, &owner.api_key_id, "webhook.register", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let record = Record::in_progress(Fingerprint::of("webhook.register", raw.as_bytes()));
        self.kv.put_record(sk.storage_key(), record).await.ok();
        let hook = crate::webhooks::register(&owner, raw.as_bytes()).await;
        self.kv.complete(sk.storage_key(), hook.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &hook)
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
