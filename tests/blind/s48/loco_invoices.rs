use heed::types::Bytes;
use heed::{Database, Env};
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize)]
pub struct IssueParams {
    pub customer: String,
    pub lines: Vec<(String, i64)>,
}

#[derive(Clone)]
pub struct ReplayDb {
    pub env: Env,
    pub db: Database<Bytes, Bytes>,
}

fn header_key(headers: &HeaderMap) -> Option<&[u8]> {
    headers.get("Idempotency-Key").map(|v| v.as_bytes())
}

fn split_pid(pid: &str) -> Result<(&str, &str)> {
    pid.split_once('/').ok_or_else(|| Error::Unauthorized("malformed subject".into()))
}

pub async fn issue(
    State(ctx): State<AppContext>,
    auth: auth::JWT,
    headers: HeaderMap,
    Json(params): Json<IssueParams>,
) -> Result<Response> {
    let replay = ctx.shared_store.get::<ReplayDb>().ok_or_else(|| Error::string("replay db missing"))?;
    let k = header_key(&headers).ok_or_else(|| Error::BadRequest("Idempotency-Key required".into()))?;
    let (tenant_id, user_id) = split_pid(&auth.claims.pid)?;
    let route = "/api/invoices";
    let key = [tenant_id.as_bytes(), b"\0", user_id.as_bytes(), b"\0", route.as_bytes(), b"\0", k].concat();
    {
        let rtxn = replay.env.read_txn().map_err(|e| Error::string(&e.to_string()))?;
        if let Some(prev) = replay.db.get(&rtxn, &key).map_err(|e| Error::string(&e.to_string()))? {
            return format::json(serde_json::from_slice::<serde_json::Value>(prev)?);
        }
    }
    let total: i64 = params.lines.iter().map(|(_, c)| c).sum();
    let out = serde_json::json!({ "customer": params.customer, "total": total });
    let mut wtxn = replay.env.write_txn().map_err(|e| Error::string(&e.to_string()))?;
    replay
        .db
        .put(&mut wtxn, &key, &serde_json::to_vec(&out)?)
        .map_err(|e| Error::string(&e.to_string()))?;
    wtxn.commit().map_err(|e| Error::string(&e.to_string()))?;
    format::json(out)
}

pub fn routes() -> Routes {
    Routes::new().prefix("api/invoices").add("/", post(issue))
}
