use deadpool_redis::{redis, Pool};
use idem_scope::scoped;
use salvo::prelude::*;

use crate::auth::Principal;
use crate::carriers::{CarrierClient, LabelOrder};
use crate::errors::ApiError;

const CLAIM_PX: u64 = 300_000;
const RESULT_TTL: u64 = 86_400;

#[handler]
pub async fn purchase_label(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), ApiError> {
    let principal = depot.obtain::<Principal>().map_err(|_| ApiError::Unauthenticated)?.clone();
    let pool = depot.obtain::<Pool>().map_err(|_| ApiError::Internal)?.clone();
    let carrier = depot.obtain::<CarrierClient>().map_err(|_| ApiError::Internal)?.clone();

    let client_key: String = req.header("Idempotency-Key").ok_or(ApiError::MissingKey)?;
    let key = scoped(&principal.org_id, &principal.user_id, "labels.purchase", &client_key).map_err(ApiError::scope)?;
    let k = key.storage_key().to_owned();

    let mut conn = pool.get().await.map_err(ApiError::from)?;
    let won: Option<String> = redis::cmd("SET").arg(&k).arg("in_progress").arg("NX").arg("PX").arg(CLAIM_PX).query_async(&mut conn).await?;
    if won.is_none() {
        let cached: Option<String> = redis::cmd("GET").arg(&k).query_async(&mut conn).await?;
        return match cached.as_deref() {
            Some("in_progress") | None => Err(ApiError::InProgress(client_key)),
            Some(body) => {
                res.render(Text::Json(body.to_owned()));
                Ok(())
            }
        };
    }

    let order: LabelOrder = req.parse_json().await.map_err(|_| ApiError::BadRequest)?;
    let label = carrier.purchase_label(&principal.org_id, &order).await.map_err(ApiError::from)?;
    let body = serde_json::to_string(&label).map_err(|_| ApiError::Internal)?;

    redis::cmd("SET").arg(&k).arg(&body).arg("EX").arg(RESULT_TTL).query_async::<()>(&mut conn).await?;
    res.status_code(StatusCode::CREATED);
    res.render(Text::Json(body));
    Ok(())
}
