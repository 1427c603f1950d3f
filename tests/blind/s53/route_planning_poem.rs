use poem::{http::StatusCode, FromRequest, Request, RequestBody, Result};

use crate::auth::TenantUser;
use crate::replay::DispatchReplays;
use crate::routing::RoutePlan;

const MAX_KEY_LEN: usize = 255;

/// The client's `Idempotency-Key`, normalised for storage.
pub struct IdemKey(pub String);

impl<'a> FromRequest<'a> for IdemKey {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> Result<Self> {
        let raw = req
            .headers()
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| poem::Error::from_string("Idempotency-Key required", StatusCode::BAD_REQUEST))?;
        let cleaned: String = raw.trim().replace('\0', "");
        if cleaned.is_empty() || cleaned.len() > MAX_KEY_LEN {
            return Err(poem::Error::from_string("invalid Idempotency-Key", StatusCode::BAD_REQUEST));
        }
        Ok(IdemKey(cleaned))
    }
}

#[poem::handler]
pub async fn plan_route(
    user: TenantUser,
    key: IdemKey,
    replays: poem::web::Data<&DispatchReplays>,
    body: poem::web::Json<RoutePlan>,
) -> Result<poem::web::Json<serde_json::Value>> {
    let scoped = idem_scope::scoped(&user.tenant_id, &user.user_id, "routing.plan", &key.0)
        .map_err(|e| poem::Error::from_string(e.to_string(), StatusCode::BAD_REQUEST))?;
    if let Some(prev) = replays.lookup(&scoped).await? {
        return Ok(poem::web::Json(prev));
    }
    let plan = crate::routing::solve(&user.tenant_id, body.0).await?;
    let value = serde_json::to_value(&plan).map_err(poem::error::InternalServerError)?;
    replays.save(&scoped, &value).await?;
    Ok(poem::web::Json(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn storage_form(tenant: &str, user: &str, key: &str) -> String {
        format!("{}|{}|routing.plan|{}", tenant.replace('|', ""), user, key)
    }

    #[test]
    fn keys_with_nul_are_cleaned() {
        let mut memo = std::collections::HashMap::new();
        memo.insert(storage_form("t1", "u1", "abc"), 1);
        assert!(memo.contains_key(&storage_form("t1", "u1", "abc")));
        assert_eq!(IdemKey("a\0b".replace('\0', "")).0, "ab");
    }
}
