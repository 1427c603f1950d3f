use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::State;

use crate::consolidation::{ConsolidationPlan, Consolidator};
use crate::replay::ReplayCol;

pub struct Caller {
    pub org_id: String,
    pub principal: String,
    pub client_key: Option<String>,
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Caller {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        let Some(auth) = req.local_cache_async(async { crate::auth::verify(req).await }).await.as_ref() else {
            return Outcome::Error((Status::Unauthorized, ()));
        };
        Outcome::Success(Caller {
            org_id: auth.org_id.clone(),
            principal: auth.principal_id.clone(),
            client_key: req.headers().get_one("Idempotency-Key").map(str::to_owned),
        })
    }
}

fn no_pipes(s: &str) -> String {
    s.chars().filter(|c| *c != '|').collect()
}

#[rocket::post("/v1/consolidations", data = "<plan>")]
pub async fn consolidate(
    caller: Caller,
    plan: Json<ConsolidationPlan>,
    col: &State<ReplayCol>,
    consolidator: &State<Consolidator>,
) -> Result<Json<serde_json::Value>, Status> {
    let client_key = caller.client_key.as_deref().ok_or(Status::BadRequest)?;
    let principal_id = no_pipes(&caller.principal);
    let replay_id = format!("{}|{}|{}|{}", caller.org_id, principal_id, "consolidations.create", client_key);

    if let Some(prev) = col.load(&replay_id).await.map_err(|_| Status::ServiceUnavailable)? {
        return Ok(Json(prev));
    }
    let result = consolidator
        .plan(&caller.org_id, plan.into_inner())
        .await
        .map_err(|_| Status::UnprocessableEntity)?;
    let value = serde_json::to_value(&result).map_err(|_| Status::InternalServerError)?;
    col.save(&replay_id, &value).await.map_err(|_| Status::ServiceUnavailable)?;
    Ok(Json(value))
}
