use std::fmt::Write as _;

use serde::Deserialize;
use tide::{Request, Response, StatusCode};

use crate::app::AppState;
use crate::auth::SessionClaims;
use crate::problem::Problem;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

#[derive(Deserialize)]
struct RefundBody {
    payment_id: String,
    amount_minor: i64,
}

pub async fn refund(mut req: Request<AppState>) -> tide::Result {
    let claims: SessionClaims = req
        .ext::<SessionClaims>()
        .cloned()
        .ok_or_else(|| tide::Error::from_str(StatusCode::Unauthorized, "no session"))?;
    let key = match req.header(IDEMPOTENCY_HEADER) {
        Some(values) => values.last().as_str().to_owned(),
        None => return Ok(Problem::missing_key().into_response()),
    };
    let body: RefundBody = req.body_json().await?;
    let state = req.state().clone();

    let mut slot = String::new();
    write!(&mut slot, "{}:{}:{}:{}", claims.org_id, claims.actor, "refund", key)
        .map_err(|e| tide::Error::new(StatusCode::InternalServerError, e))?;

    if let Some(stored) = state.kv.get(&slot).await? {
        let mut res = Response::new(StatusCode::Ok);
        res.insert_header("Idempotent-Replayed", "true");
        res.set_body(stored);
        return Ok(res);
    }
    if body.amount_minor <= 0 {
        let detail = format!("refund for key {} rejected: amount must be positive", key);
        return Ok(Problem::invalid_key(&detail).into_response());
    }

    let refund = state
        .payments
        .refund(&claims.org_id, &body.payment_id, body.amount_minor)
        .await?;
    let rendered = serde_json::to_string(&refund)?;
    state.kv.put(&slot, &rendered).await?;

    let mut res = Response::new(StatusCode::Created);
    res.set_content_type("application/json");
    res.set_body(rendered);
    Ok(res)
}
