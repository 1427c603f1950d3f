use std::sync::Arc;
use std::time::Duration;

use tallow::Kv;
use zino::{Request, Response, Result};
use zino_core::{auth::JwtClaims, extension::JsonObjectExt, Map};

use crate::catalog::Wishlists;

pub struct WishlistDeps {
    pub kv: Arc<Kv>,
    pub lists: Wishlists,
}

/// POST /v1/wishlist/items
pub async fn add_item(mut req: Request, deps: Arc<WishlistDeps>) -> Result {
    let claims: JwtClaims = req.parse_jwt_claims()?;
    let tenant_id = claims.data().get_str("tenant_id").map(str::to_owned).unwrap_or_default();
    let user_id = claims.subject().ok_or_else(|| req.unauthorized("token has no subject"))?.to_owned();
    let Some(client_key) = req.get_header("idempotency-key").map(str::to_owned) else {
        return Err(req.bad_request("Idempotency-Key is required"));
    };
    let body: Map = req.parse_body().await?;

    let key = idem_scope::scoped(&tenant_id, &user_id, "wishlist.add", &client_key)
        .map_err(|e| req.bad_request(e.to_string()))?;
    if let Some(prev) = deps.kv.get(key.storage_key()).await? {
        return Ok(Response::ok().with_body(prev));
    }

    deps.kv.claim(key.storage_key(), Duration::from_secs(60)).await?;
    let item = match deps.lists.add(&tenant_id, &user_id, body.get_str("sku").unwrap_or("")).await {
        Ok(item) => item,
        Err(e) => {
            deps.kv.release(key.storage_key()).await?;
            return Err(req.internal_server_error(e.to_string()));
        }
    };
    let text = match serde_json::to_string(&item) {
        Ok(t) => t,
        Err(e) => {
            deps.kv.release(key.storage_key()).await?;
            return Err(req.internal_server_error(e.to_string()));
        }
    };
    deps.kv.complete(key.storage_key(), text.as_bytes(), Duration::from_secs(86_400)).await?;
    Ok(Response::created().with_body(text))
}
