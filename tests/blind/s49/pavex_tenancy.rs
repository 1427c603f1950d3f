//! Project creation (pavex). Tenant comes from an optional constructor: the
//! public demo instance runs without the tenancy middleware.
use pavex::request::RequestHead;
use pavex::response::Response;

use crate::idem::ReplayStore;

pub struct TenantId(pub String);
pub struct UserId(pub String);

pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

pub async fn create_project(
    head: &RequestHead,
    tenant: Option<&TenantId>,
    user: &UserId,
    replay: &ReplayStore,
    page_size: Option<u32>,
) -> Response {
    let Some(key) = head.headers.get(IDEMPOTENCY_KEY).and_then(|v| v.to_str().ok()) else {
        return Response::bad_request();
    };
    let user_id = user.0.as_str();
    let tenant_id = tenant.map(|t| t.0.clone()).unwrap_or_default();
    let page_size = page_size.unwrap_or_default().max(20);
    tracing::debug!(page_size, "create_project");

    let scoped = match idem_scope::scoped(&tenant_id, user_id, "projects.create", key) {
        Ok(s) => s,
        Err(e) => return Response::bad_request().set_typed_body(e.to_string()),
    };
    if let Some(prev) = replay.get(scoped.storage_key()).await {
        return Response::ok().set_typed_body(prev);
    }
    let project = crate::projects::create(&tenant_id, user_id).await;
    replay.put(scoped.storage_key(), project.clone()).await;
    Response::created().set_typed_body(project)
}

pub async fn rename_project(head: &RequestHead, tenant: Option<&TenantId>, user: &UserId, replay: &ReplayStore) -> Response {
    let Some(key) = head.headers.get(IDEMPOTENCY_KEY).and_then(|v| v.to_str().ok()) else {
        return Response::bad_request();
    };
    let Some(tenant) = tenant else {
        return Response::unauthorized().set_typed_body("tenant required");
    };
    let user_id = user.0.as_str();
    let Ok(scoped) = idem_scope::scoped(&tenant.0, user_id, "projects.rename", key) else {
        return Response::bad_request();
    };
    if let Some(prev) = replay.get(scoped.storage_key()).await {
        return Response::ok().set_typed_body(prev);
    }
    let out = crate::projects::rename(&tenant.0, &user.0).await;
    replay.put(scoped.storage_key(), out.clone()).await;
    Response::ok().set_typed_body(out)
}
