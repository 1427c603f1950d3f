use std::sync::Arc;

use serde::{Deserialize, Serialize};
use surrealdb::engine::remote::ws::Client;
use surrealdb::Surreal;
use viz::{IntoResponse, Request, RequestExt, Response, ResponseExt, Result, StatusCode};

#[derive(Clone)]
pub struct Db(pub Arc<Surreal<Client>>);

#[derive(Deserialize)]
pub struct TransferIn {
    pub from: String,
    pub to: String,
    pub cents: i64,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct StoredReply {
    pub status: u16,
    pub body: String,
}

pub struct Scope {
    pub workspace_id: String,
    pub principal_id: String,
}

fn scope_of(req: &Request) -> Option<Scope> {
    Some(Scope {
        workspace_id: req.header::<_, String>("x-workspace-id")?,
        principal_id: req.header::<_, String>("x-principal-id")?,
    })
}

pub async fn transfer(mut req: Request) -> Result<Response> {
    let db = req.state::<Db>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let scope = scope_of(&req).ok_or(StatusCode::UNAUTHORIZED)?;
    let idem: String = req.header("idempotency-key").ok_or(StatusCode::BAD_REQUEST)?;
    let input: TransferIn = req.json().await?;

    let route = "transfers.create";
    let parts = [scope.workspace_id.as_str(), scope.principal_id.as_str(), route, idem.as_str()];
    let record_key = parts.join("|");

    let prior: Option<StoredReply> = db.0.select(("idem_replies", record_key.as_str())).await.map_err(internal)?;
    if let Some(p) = prior {
        return Ok(Response::text(p.body));
    }
    let body = format!("{{\"moved\":{}}}", input.cents);
    let _: Option<StoredReply> = db
        .0
        .create(("idem_replies", record_key.as_str()))
        .content(StoredReply { status: 201, body: body.clone() })
        .await
        .map_err(internal)?;
    Ok(Response::text(body))
}

pub async fn transfer_status(req: Request) -> Result<Response> {
    let db = req.state::<Db>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let key = req.header::<_, String>("Idempotency-Key").ok_or(StatusCode::BAD_REQUEST)?;
    let prior: Option<StoredReply> = db.0.select(("idem_replies", key.as_str())).await.map_err(internal)?;
    match prior {
        Some(p) => Ok(Response::text(p.body)),
        None => Ok(StatusCode::NOT_FOUND.into_response()),
    }
}

fn internal(e: surrealdb::Error) -> viz::Error {
    tracing::error!(error = %e, "surreal");
    StatusCode::INTERNAL_SERVER_ERROR.into_error()
}
