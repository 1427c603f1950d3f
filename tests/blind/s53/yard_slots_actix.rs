use std::sync::Arc;

use actix_web::{dev::ConnectionInfo, web, HttpRequest, HttpResponse};
use idem_scope::scoped;

use crate::auth::SessionUser;
use crate::replay::ReplayStore;
use crate::warehouses::{SlotBooking, YardService};

pub struct Tenancy {
    pub base_domain: String,
}

impl Tenancy {
    pub fn tenant_from_host(&self, conn: &ConnectionInfo) -> Option<String> {
        let host = conn.host().split(':').next()?;
        let sub = host.strip_suffix(&self.base_domain)?.strip_suffix('.')?;
        let mut tenant = sub.to_ascii_lowercase();
        tenant.retain(|c| c != ':');
        (!tenant.is_empty()).then_some(tenant)
    }
}

pub async fn book_yard_slot(
    req: HttpRequest,
    user: SessionUser,
    tenancy: web::Data<Tenancy>,
    store: web::Data<Arc<ReplayStore>>,
    yard: web::Data<YardService>,
    body: web::Json<SlotBooking>,
) -> actix_web::Result<HttpResponse> {
    let tenant = tenancy
        .tenant_from_host(&req.connection_info())
        .ok_or_else(|| actix_web::error::ErrorNotFound("unknown tenant"))?;
    let client_key = req
        .headers()
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| actix_web::error::ErrorBadRequest("Idempotency-Key required"))?;
    let key = scoped(&tenant, &user.user_id, "yard.slots.book", client_key)
        .map_err(|e| actix_web::error::ErrorBadRequest(e.to_string()))?;

    if let Some(prev) = store.get(key.storage_key()).await? {
        return Ok(HttpResponse::Ok().content_type("application/json").body(prev));
    }
    let booked = yard.book(&tenant, body.into_inner()).await?;
    let json = serde_json::to_vec(&booked)?;
    store.set(key.storage_key(), &json).await?;
    Ok(HttpResponse::Created().content_type("application/json").body(json))
}
