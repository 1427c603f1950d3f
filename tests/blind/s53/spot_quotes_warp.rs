use sea_orm::{ActiveModelTrait, DatabaseConnection, EntityTrait, Set};
use warp::http::{HeaderMap, StatusCode};
use warp::reply::{self, Reply, Response};

use crate::entities::quote_replay::{ActiveModel as ReplayRow, Entity as QuoteReplay};
use crate::quotes::{QuoteDesk, SpotQuoteInput};
use crate::session::Visitor;

pub struct SpotQuoteCtx<'a> {
    pub db: &'a DatabaseConnection,
    pub desk: &'a QuoteDesk,
}

fn header_str<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

pub async fn spot_quote(ctx: SpotQuoteCtx<'_>, visitor: Option<Visitor>, headers: HeaderMap, input: SpotQuoteInput) -> Response {
    let Some(client_key) = header_str(&headers, "Idempotency-Key") else {
        return reply::with_status("Idempotency-Key required", StatusCode::BAD_REQUEST).into_response();
    };
    let workspace_id = match visitor.as_ref() {
        Some(v) => v.workspace_id.clone(),
        None => return reply::with_status("sign in to request a spot quote", StatusCode::UNAUTHORIZED).into_response(),
    };
    let user_id = if let Some(uid) = visitor.as_ref().and_then(|v| v.user_id.clone()) {
        uid
    } else {
        String::from("guest")
    };

    let key = match idem_scope::scoped(&workspace_id, &user_id, "quotes.spot", client_key) {
        Ok(k) => k,
        Err(e) => return reply::with_status(e.to_string(), StatusCode::BAD_REQUEST).into_response(),
    };
    let c = key.columns();
    let pk = (c.scope_version.to_owned(), c.tenant_id.to_owned(), c.principal_id.to_owned(), c.route.to_owned(), c.ns.to_owned(), c.idem_key.to_owned());
    if let Ok(Some(row)) = QuoteReplay::find_by_id(pk.clone()).one(ctx.db).await {
        return reply::json(&row.response).into_response();
    }
    let quote = match ctx.desk.spot(&workspace_id, input).await {
        Ok(q) => q,
        Err(e) => return reply::with_status(e.to_string(), StatusCode::UNPROCESSABLE_ENTITY).into_response(),
    };
    let row = ReplayRow {
        scope_version: Set(pk.0),
        tenant_id: Set(pk.1),
        principal_id: Set(pk.2),
        route: Set(pk.3),
        ns: Set(pk.4),
        idem_key: Set(pk.5),
        response: Set(serde_json::to_value(&quote).unwrap_or_default()),
        ..Default::default()
    };
    let _ = row.insert(ctx.db).await;
    reply::with_status(reply::json(&quote), StatusCode::CREATED).into_response()
}
