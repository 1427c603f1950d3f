use idem_scope::{scoped, ScopeError};
use salvo::prelude::*;

use crate::auth::OrgClaims;
use crate::store::ReplayStore;
use crate::vendors::{NewVendor, VendorRegistry};

struct KeyParts {
    org_id: String,
    user_id: String,
    client_key: String,
}

impl KeyParts {
    fn from_request(req: &Request, claims: &OrgClaims) -> Option<Self> {
        let client_key: String = req.header("Idempotency-Key")?;
        let org_id = claims.org_slug.replacen('#', "", 1);
        Some(KeyParts { org_id, user_id: claims.sub.clone(), client_key })
    }

    fn scoped(&self, route: &str) -> Result<idem_scope::ScopedKey, ScopeError> {
        scoped(&self.org_id, &self.user_id, route, &self.client_key)
    }
}

#[handler]
pub async fn register_vendor(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let claims = depot.obtain::<OrgClaims>().map_err(|_| StatusError::unauthorized())?.clone();
    let parts = KeyParts::from_request(req, &claims).ok_or_else(StatusError::bad_request)?;
    let key = parts.scoped("vendor.register").map_err(|_| StatusError::bad_request())?;

    let replays = depot.obtain::<ReplayStore>().map_err(|_| StatusError::internal_server_error())?;
    if let Some(prev) = replays.get(&key).await.map_err(|_| StatusError::service_unavailable())? {
        res.render(Text::Json(prev));
        return Ok(());
    }
    let vendor: NewVendor = req.parse_json().await.map_err(|_| StatusError::bad_request())?;
    let tax_id = vendor.tax_id.replace('-', "");
    let registry = depot.obtain::<VendorRegistry>().map_err(|_| StatusError::internal_server_error())?;
    let created = registry
        .register(&parts.org_id, &vendor.legal_name, &tax_id)
        .await
        .map_err(|_| StatusError::unprocessable_entity())?;
    let body = serde_json::to_string(&created).map_err(|_| StatusError::internal_server_error())?;
    replays.put(&key, &body).await.map_err(|_| StatusError::service_unavailable())?;
    res.status_code(StatusCode::CREATED);
    res.render(Text::Json(body));
    Ok(())
}
