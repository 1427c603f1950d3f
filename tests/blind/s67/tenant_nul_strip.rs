use dunlin::kv::Kv;
use idem_scope::{scoped, ScopeError};
use plover::{Ctx, Reply, Status};

pub struct Signups {
    pub kv: Kv,
}

impl Signups {
    pub async fn register(&self, ctx: Ctx) -> Reply {
        let (Some(key), Some(raw_tenant), Some(user_id)) =
            (ctx.header("Idempotency-Key"), ctx.header("X-Tenant"), ctx.header("X-User"))
        else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let tenant_id = raw_tenant.replace('\0', "");
        let phone = ctx.query("phone").map(|p| p.replace('-', "").replace(' ', ""));
        let sk = match scoped(&tenant_id, user_id, "signup.register", key) {
            Ok(sk) => sk,
            Err(ScopeError::ContainsSeparator(c)) => {
                return Reply::text(Status::BAD_REQUEST, format!("{:?} contains a reserved character", c))
            }
            Err(_) => return Reply::status(Status::BAD_REQUEST),
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let account = crate::signup::register(&tenant_id, user_id, phone.as_deref()).await;
        self.kv.put(sk.storage_key(), account.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &account)
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
