use std::collections::HashMap;
use std::sync::RwLock;

use idem_scope::{scoped, ScopedKey};
use nickel::status::StatusCode;
use nickel::{HttpRouter, MiddlewareResult, Nickel, Request, Response};

pub struct TransferState {
    done: RwLock<HashMap<String, String>>,
}

fn header_text(req: &Request<TransferState>, name: &str) -> Option<String> {
    req.origin
        .headers
        .get_raw(name)
        .and_then(|v| v.first())
        .map(|b| String::from_utf8_lossy(b).into_owned())
}

fn transfer_handler<'mw>(req: &mut Request<TransferState>, res: Response<'mw, TransferState>) -> MiddlewareResult<'mw, TransferState> {
    let dedupe_id = match header_text(req, "Idempotency-Key") {
        Some(v) => v,
        None => return res.error(StatusCode::BadRequest, "Idempotency-Key header is required"),
    };
    let workspace_id = header_text(req, "X-Workspace-Id")
        .filter(|w| !w.is_empty())
        .unwrap_or_else(|| "global".to_owned());
    let user_id = match req.extensions().get::<SessionUser>() {
        Some(u) => u.id.clone(),
        None => return res.error(StatusCode::Unauthorized, "login required"),
    };
    let key: ScopedKey = match scoped(&workspace_id, &user_id, "transfers.create", &dedupe_id) {
        Ok(k) => k,
        Err(e) => return res.error(StatusCode::BadRequest, format!("invalid Idempotency-Key: {e}")),
    };
    let state = res.server_data();
    if let Some(prev) = state.done.read().unwrap().get(key.storage_key()) {
        return res.send(prev.clone());
    }
    let transfer_id = format!("tr_{}", ulid::Ulid::new());
    state.done.write().unwrap().insert(key.storage_key().to_owned(), transfer_id.clone());
    res.send(transfer_id)
}

pub fn serve() {
    let mut server = Nickel::with_data(TransferState { done: RwLock::new(HashMap::new()) });
    server.post("/v1/transfers", transfer_handler);
    server.listen("0.0.0.0:6767").unwrap();
}
