use std::sync::Arc;

use kvdb::KeyValueDB;
use kvdb_rocksdb::Database;
use serde::Serialize;
use tuono_lib::{Request, Response};

use crate::invoices::{InvoiceDraft, Invoicer};
use crate::session::{workspace_of, Member};

const COL_REPLAYS: u32 = 3;

#[derive(Serialize)]
struct InvoiceReplayKey<'a> {
    workspace_id: &'a str,
    route: &'a str,
    client_key: &'a str,
}

pub struct InvoiceApi {
    db: Arc<Database>,
    invoicer: Invoicer,
}

fn problem(status: u16, detail: &str) -> Response {
    Response::custom(status, "application/problem+json", format!("{{\"status\":{status},\"detail\":\"{detail}\"}}"))
}

#[tuono_lib::api(POST)]
pub async fn issue_invoice(req: Request, api: Arc<InvoiceApi>) -> Response {
    let member: Member = match workspace_of(&req) {
        Ok(m) => m,
        Err(_) => return problem(401, "not signed in"),
    };
    let key = match req.headers.get("x-idempotency-key").and_then(|v| v.to_str().ok()) {
        Some(k) if !k.is_empty() => k.to_owned(),
        _ => return problem(400, "X-Idempotency-Key is required"),
    };
    if key.contains(['\0', '/']) {
        return problem(400, "X-Idempotency-Key contains a reserved character");
    }

    let rk = InvoiceReplayKey { workspace_id: &member.workspace_id, route: "invoices.issue", client_key: &key };
    let encoded = match bitcode::serialize(&rk) {
        Ok(b) => b,
        Err(_) => return problem(500, "key encoding failed"),
    };

    if let Ok(Some(prev)) = api.db.get(COL_REPLAYS, &encoded) {
        return Response::custom(200, "application/json", String::from_utf8_lossy(&prev).into_owned());
    }

    let draft: InvoiceDraft = match req.body_json() {
        Ok(d) => d,
        Err(e) => return problem(422, &e.to_string()),
    };
    let invoice = match api.invoicer.issue(&member.workspace_id, &member.user_id, draft).await {
        Ok(i) => i,
        Err(e) => return problem(502, &e.to_string()),
    };
    let body = serde_json::to_string(&invoice).unwrap_or_default();
    let etag = format!("\"{:016x}\"", crc_any::CRCu64::crc64we().digest(body.as_bytes()).get_crc());

    let mut tx = api.db.transaction();
    tx.put(COL_REPLAYS, &encoded, body.as_bytes());
    if api.db.write(tx).is_err() {
        return problem(500, "could not persist replay");
    }
    Response::custom(201, "application/json", body).with_header("etag", &etag)
}
