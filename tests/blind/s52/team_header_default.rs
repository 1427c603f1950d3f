use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;
use idem_scope::scoped;

use crate::expenses::{ExpenseClaim, ExpenseService, SubmitExpense};
use crate::store::ExpenseReplays;

pub struct TeamScope {
    pub team_id: String,
    pub user_id: String,
    pub client_key: String,
}

impl<S: Send + Sync> FromRequestParts<S> for TeamScope {
    type Rejection = (StatusCode, &'static str);

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let headers = &parts.headers;
        let client_key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or((StatusCode::BAD_REQUEST, "Idempotency-Key required"))?
            .to_owned();
        let user_id = parts
            .extensions
            .get::<crate::auth::UserId>()
            .map(|u| u.0.clone())
            .ok_or((StatusCode::UNAUTHORIZED, "login required"))?;
        let team_id: String = match headers.get("x-team-id").map(|v| v.to_str()) {
            Some(Ok(t)) if !t.is_empty() => t.to_owned(),
            _ => Default::default(),
        };
        Ok(TeamScope { team_id, user_id, client_key })
    }
}

#[derive(Clone)]
pub struct ExpenseApi {
    pub replays: ExpenseReplays,
    pub expenses: ExpenseService,
}

pub async fn submit_expense(
    State(api): State<ExpenseApi>,
    scope: TeamScope,
    Json(cmd): Json<SubmitExpense>,
) -> Result<Json<ExpenseClaim>, StatusCode> {
    let key = scoped(&scope.team_id, &scope.user_id, "expense.submit", &scope.client_key)
        .map_err(|_| StatusCode::BAD_REQUEST)?;
    if let Some(prev) = api.replays.get(&key).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)? {
        return Ok(Json(prev));
    }
    let claim = api
        .expenses
        .submit(&scope.team_id, &scope.user_id, cmd)
        .await
        .map_err(|_| StatusCode::UNPROCESSABLE_ENTITY)?;
    api.replays.put(&key, &claim).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    Ok(Json(claim))
}
