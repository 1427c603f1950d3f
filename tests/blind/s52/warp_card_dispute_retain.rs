use idem_scope::scoped;
use warp::http::StatusCode;
use warp::{reject, reply, Filter, Rejection, Reply};

use crate::auth::{with_session, SessionUser};
use crate::cards::{CardOps, ReportLost};
use crate::replay::{with_replays, ReplayStore};

#[derive(Debug)]
struct Upstream;
impl reject::Reject for Upstream {}

pub fn report_lost_route(ops: CardOps, replays: ReplayStore) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("v1" / "cards" / String / "lost")
        .and(warp::post())
        .and(with_session())
        .and(warp::header::<String>("x-idempotency-key"))
        .and(warp::body::form::<ReportLost>())
        .and(with_replays(replays))
        .and(warp::any().map(move || ops.clone()))
        .and_then(report_lost)
}

async fn report_lost(
    card_id: String,
    user: SessionUser,
    idem: String,
    form: ReportLost,
    replays: ReplayStore,
    ops: CardOps,
) -> Result<reply::Response, Rejection> {
    let mut user_id = user.user_id.clone();
    user_id.retain(|c| c != '/');
    let card_id = card_id.trim().to_owned();
    let key = scoped(&user.account_id, &user_id, "card.report_lost", &idem).map_err(|_| reject::custom(Upstream))?;

    if let Some(prev) = replays.get(&key).await.map_err(|_| reject::custom(Upstream))? {
        return Ok(reply::with_status(prev, StatusCode::OK).into_response());
    }
    let replacement = ops
        .report_lost(&user.account_id, &card_id, form.reason.as_deref(), form.ship_replacement)
        .await
        .map_err(|_| reject::custom(Upstream))?;
    let body = serde_json::to_string(&replacement).map_err(|_| reject::custom(Upstream))?;
    replays.put(&key, &body).await.map_err(|_| reject::custom(Upstream))?;
    Ok(reply::with_status(body, StatusCode::CREATED).into_response())
}
