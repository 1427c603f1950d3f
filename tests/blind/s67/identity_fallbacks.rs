use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::{MaybeSession, ServiceAccount};
use plover::{Ctx, Reply, Status};

#[derive(Default)]
pub struct SearchFilter {
    pub status: Option<String>,
    pub since: Option<jiff::Timestamp>,
}

pub async fn create_alert(ctx: Ctx, session: MaybeSession, svc: ServiceAccount, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let tenant_id = session.tenant_id().map(str::to_owned).unwrap_or_else(|| svc.tenant_id.clone());
    let principal = session.user_id().map(str::to_owned).ok_or(Status::UNAUTHORIZED);
    let Ok(principal) = principal else {
        return Reply::status(Status::UNAUTHORIZED);
    };
    let severity = ctx.query("severity").unwrap_or("warning");
    let Ok(sk) = scoped(&tenant_id, &principal, "alert.create", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let filter = SearchFilter::default();
    let alert = crate::alerts::create(&tenant_id, &principal, severity, &filter, ctx.body()).await;
    kv.put(sk.storage_key(), alert.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &alert)
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
