use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub async fn upload_document(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let Some(hdr) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let client_key = hdr.trim_matches('/');
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "document.upload", client_key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let doc = crate::documents::store(&caller, ctx.body()).await;
    kv.put(sk.storage_key(), doc.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &doc)
}

pub async fn rename_document(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let Some(hdr) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let client_key = hdr.trim();
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "document.rename", client_key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let new_name = ctx.query("name").unwrap_or_default().trim_matches('/').to_owned();
    let doc = crate::documents::rename(&caller, &new_name).await;
    kv.put(sk.storage_key(), doc.to_bytes()).await.ok();
    Reply::json(Status::OK, &doc)
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
