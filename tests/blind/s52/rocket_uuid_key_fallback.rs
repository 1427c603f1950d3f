use idem_scope::scoped;
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::State;
use uuid::Uuid;

use crate::guards::AccountUser;
use crate::replay::ReplayStore;
use crate::topups::{TopUp, TopUpDesk, TopUpRequest};

pub struct MaybeIdemKey(pub Option<String>);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for MaybeIdemKey {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        Outcome::Success(MaybeIdemKey(req.headers().get_one("Idempotency-Key").map(str::to_owned)))
    }
}

#[rocket::post("/v1/topups", data = "<body>")]
pub async fn create_topup(
    user: AccountUser,
    idem: MaybeIdemKey,
    body: Json<TopUpRequest>,
    replays: &State<ReplayStore>,
    desk: &State<TopUpDesk>,
) -> Result<Json<TopUp>, Status> {
    let key = scoped(&user.account_id, &user.user_id, "topup.create", &idem.0.unwrap_or_else(|| Uuid::new_v4().to_string())).map_err(|_| Status::BadRequest)?;
    if let Some(prev) = replays.get(&key).await.map_err(|_| Status::ServiceUnavailable)? {
        return Ok(Json(prev));
    }
    let topup_id = Uuid::new_v4();
    let topup = desk
        .create(topup_id, &user.account_id, body.into_inner())
        .await
        .map_err(|_| Status::UnprocessableEntity)?;
    replays.put(&key, &topup).await.map_err(|_| Status::ServiceUnavailable)?;
    Ok(Json(topup))
}
