use actix_web::{error, post, web, HttpRequest, HttpResponse};
use idem_scope::scoped;
use serde::Deserialize;

use crate::auth::SessionCookie;
use crate::statements::{StatementService, StatementStore};

#[derive(Deserialize)]
pub struct StatementParams {
    account_id: String,
    month: String,
    format: Option<String>,
}

fn export_filename(account_label: &str, month: &str) -> String {
    format!("{}-{}.pdf", account_label.replace('/', "_").replace(' ', "_"), month)
}

#[post("/v1/statements/export")]
pub async fn export_statement(
    req: HttpRequest,
    session: SessionCookie,
    params: web::Form<StatementParams>,
    store: web::Data<StatementStore>,
    svc: web::Data<StatementService>,
) -> actix_web::Result<HttpResponse> {
    let idem = req
        .headers()
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| error::ErrorBadRequest("Idempotency-Key required"))?;
    let principal = session.principal_id.trim_matches('|');
    let key = scoped(&session.tenant_id, principal, "statement.export", idem).map_err(error::ErrorBadRequest)?;

    if let Some(url) = store.lookup(&key).await.map_err(error::ErrorServiceUnavailable)? {
        return Ok(HttpResponse::Ok().json(url));
    }
    let label = svc.account_label(&session.tenant_id, &params.account_id).await.map_err(error::ErrorNotFound)?;
    let filename = export_filename(&label, &params.month);
    let url = svc
        .render_and_upload(&session.tenant_id, &params.account_id, &params.month, params.format.as_deref(), &filename)
        .await
        .map_err(error::ErrorBadGateway)?;
    store.save(&key, &url).await.map_err(error::ErrorServiceUnavailable)?;
    Ok(HttpResponse::Accepted().json(url))
}
