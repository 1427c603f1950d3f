use std::fmt;

use idem_scope::scoped;
use salvo::prelude::*;

use crate::loans::{LoanApplication, LoanDesk};
use crate::store::ReplayTable;

#[derive(Debug, Clone)]
pub enum Principal {
    User(String),
    ServiceAccount(String),
    Anonymous,
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Principal::User(id) | Principal::ServiceAccount(id) => f.write_str(id),
            Principal::Anonymous => f.write_str("anonymous"),
        }
    }
}

#[derive(Clone)]
pub struct TenantCtx {
    pub tenant_id: String,
}

#[handler]
pub async fn apply_for_loan(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let tenant = depot.obtain::<TenantCtx>().map_err(|_| StatusError::unauthorized())?.clone();
    let session_user = depot.get::<String>("session_user").ok().cloned();
    let principal = session_user.map(Principal::User).unwrap_or(Principal::Anonymous);

    let idem: String = req.header("Idempotency-Key").ok_or_else(StatusError::bad_request)?;
    let key = scoped(&tenant.tenant_id, &principal.to_string(), "loan.apply", &idem)
        .map_err(|_| StatusError::bad_request())?;

    let replays = depot.obtain::<ReplayTable>().map_err(|_| StatusError::internal_server_error())?;
    if let Some(prev) = replays.load(&key).await.map_err(|_| StatusError::service_unavailable())? {
        res.render(Text::Json(prev));
        return Ok(());
    }
    let app: LoanApplication = req.parse_json().await.map_err(|_| StatusError::bad_request())?;
    let desk = depot.obtain::<LoanDesk>().map_err(|_| StatusError::internal_server_error())?;
    let decision = desk
        .submit(&tenant.tenant_id, &principal.to_string(), app)
        .await
        .map_err(|_| StatusError::unprocessable_entity())?;
    let body = serde_json::to_string(&decision).map_err(|_| StatusError::internal_server_error())?;
    replays.save(&key, &body).await.map_err(|_| StatusError::service_unavailable())?;
    res.status_code(StatusCode::CREATED);
    res.render(Text::Json(body));
    Ok(())
}
