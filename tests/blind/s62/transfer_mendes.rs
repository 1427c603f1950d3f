use std::fmt::Write as _;
use std::sync::Arc;

use idem_scope::{decide, Decision, Fingerprint, Problem, Record};
use mendes::application::IntoResponse;
use mendes::http::request::Parts;
use mendes::http::{header, Response, StatusCode};
use mendes::{handler, route, Application, Context};
use quarry::kv::Vault;
use serde::Deserialize;

pub struct Bank {
    vault: Arc<Vault>,
    rails: rails::Client,
}

#[derive(Deserialize)]
struct TransferIn {
    from_account: String,
    to_iban: String,
    amount_minor: u64,
}

fn transfer_slot(tenant_id: &str, user_id: &str, route: &str, client_key: &str) -> String {
    let mut out = String::with_capacity(tenant_id.len() + user_id.len() + client_key.len() + 24);
    let _ = write!(out, "{}|{}|{}|{}", tenant_id, user_id, route, client_key);
    out
}

#[handler(POST)]
async fn create_transfer(app: &Bank, req: &Parts, #[raw] body: bytes::Bytes) -> Result<Response<String>, Problem> {
    let caller = req.extensions.get::<auth::Caller>().ok_or_else(|| Problem::invalid_key("unauthenticated"))?;
    let client_key = req
        .headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(Problem::missing_key)?;

    let slot = transfer_slot(&caller.tenant_id, &caller.user_id, "transfers.create", client_key);
    let fingerprint = Fingerprint::of("/v1/transfers", &body);
    let existing: Option<Record> = app.vault.get(&slot).await.map_err(|_| Problem::in_progress(client_key))?;
    match decide(existing.as_ref(), &fingerprint) {
        Decision::Replay => return Ok(replayed(&existing)),
        Decision::InProgress => return Err(Problem::in_progress(client_key)),
        Decision::Mismatch => return Err(Problem::mismatch(client_key)),
        Decision::Proceed => {}
    }

    let input: TransferIn = serde_json::from_slice(&body).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let transfer = app.rails.send(&input.from_account, &input.to_iban, input.amount_minor).await;
    app.vault.put(&slot, Record::completed(fingerprint)).await.ok();

    Ok(Response::builder()
        .status(StatusCode::CREATED)
        .header(header::LOCATION, format!("/v1/transfers/{}", transfer.id))
        .body(transfer.to_json())
        .unwrap())
}

fn replayed(rec: &Option<Record>) -> Response<String> {
    let mut resp = Response::new(rec.as_ref().map(|r| r.body_text()).unwrap_or_default());
    resp.headers_mut().insert("Idempotent-Replayed", "true".parse().unwrap());
    resp
}

#[async_trait::async_trait]
impl Application for Bank {
    type RequestBody = mendes::body::Body;
    type ResponseBody = String;
    type Error = Problem;

    async fn handle(mut cx: Context<Self>) -> Response<String> {
        route!(match cx.path() {
            Some("v1") => route!(match cx.path() {
                Some("transfers") => create_transfer,
            }),
        })
    }
}
