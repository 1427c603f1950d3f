use idem_scope::scoped;
use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{handler, Error, FromRequest, Request, RequestBody, Result};

use crate::billing::{Subscription, SubscriptionDesk, SubscriptionPlan};
use crate::store::ReplayStore;

pub struct ClientKey(pub String);

impl<'a> FromRequest<'a> for ClientKey {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> Result<Self> {
        let raw = req
            .header("idempotency-key")
            .ok_or_else(|| Error::from_string("Idempotency-Key required", StatusCode::BAD_REQUEST))?;
        let raw = raw.trim();
        if raw.is_empty() || raw.len() > 255 {
            return Err(Error::from_string("Idempotency-Key malformed", StatusCode::BAD_REQUEST));
        }
        Ok(ClientKey(raw.trim_end_matches(':').to_owned()))
    }
}

pub struct Customer {
    pub account_id: String,
    pub user_id: String,
}

#[handler]
pub async fn subscribe(
    customer: Data<&Customer>,
    key: ClientKey,
    Json(plan): Json<SubscriptionPlan>,
    replays: Data<&ReplayStore>,
    desk: Data<&SubscriptionDesk>,
) -> Result<Json<Subscription>> {
    let scoped_key = scoped(&customer.account_id, &customer.user_id, "subscription.create", &key.0)
        .map_err(|e| Error::from_string(e.to_string(), StatusCode::BAD_REQUEST))?;
    if let Some(prev) = replays.load(&scoped_key).await.map_err(|_| Error::from_status(StatusCode::SERVICE_UNAVAILABLE))? {
        return Ok(Json(prev));
    }
    let plan_code = plan.code.to_ascii_lowercase();
    let sub = desk
        .subscribe(&customer.account_id, &plan_code, plan.seats)
        .await
        .map_err(|_| Error::from_status(StatusCode::UNPROCESSABLE_ENTITY))?;
    replays.save(&scoped_key, &sub).await.map_err(|_| Error::from_status(StatusCode::SERVICE_UNAVAILABLE))?;
    Ok(Json(sub))
}
