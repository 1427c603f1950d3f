use dunlin::kv::Kv;
use http_auth_basic::Credentials;
use idem_scope::scoped;
use plover::{Ctx, Reply, Status};

pub struct Tickets {
    pub kv: Kv,
    pub org_id: String,
}

impl Tickets {
    fn principal(ctx: &Ctx) -> Option<String> {
        let header = ctx.header("Authorization")?;
        Credentials::from_header(header.to_owned()).ok().map(|c| c.user_id)
    }

    pub async fn open(&self, ctx: Ctx) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let principal = Self::principal(&ctx);
        let user_id = principal.as_deref().unwrap_or("public");
        let locale = ctx.header("Accept-Language").unwrap_or("en");
        let Ok(sk) = scoped(&self.org_id, user_id, "ticket.open", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let ticket = crate::tickets::open(&self.org_id, user_id, locale, ctx.body()).await;
        self.kv.put(sk.storage_key(), ticket.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &ticket)
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
