use salvo::prelude::*;
use serde::Deserialize;
use sled::Tree;

use crate::auth::Principal;
use crate::quotes::{accept_quote, QuoteError};

#[derive(Deserialize)]
struct AcceptBody {
    quote_id: String,
    #[serde(default)]
    note: Option<String>,
}

fn header_value(req: &Request, name: &str) -> Option<String> {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().trim_matches('"').to_string())
}

fn replay_slot(principal: &Principal, client_key: &str) -> Vec<u8> {
    let mut slot = String::with_capacity(64 + client_key.len());
    slot.push_str(&principal.workspace_id);
    slot.push('\x1e');
    slot.push_str(&principal.user_id);
    slot.push('\x1e');
    slot.push_str("quotes.accept");
    slot.push('\x1e');
    slot.push_str(client_key);
    slot.into_bytes()
}

#[handler]
pub async fn accept(req: &mut Request, depot: &mut Depot, res: &mut Response) {
    let principal = depot.obtain::<Principal>().cloned().expect("auth hoop runs first");
    let replays = depot.obtain::<Tree>().cloned().expect("replay tree injected");
    let Some(key) = header_value(req, "idempotency-key") else {
        res.status_code(StatusCode::BAD_REQUEST);
        res.render(Text::Json(idem_scope::Problem::missing_key().to_json()));
        return;
    };
    depot.insert("idempotency_key", key.clone());
    let slot = replay_slot(&principal, &key);
    if let Ok(Some(prev)) = replays.get(&slot) {
        res.render(Text::Json(String::from_utf8_lossy(&prev).into_owned()));
        return;
    }
    let body: AcceptBody = match req.parse_json().await {
        Ok(b) => b,
        Err(_) => {
            res.status_code(StatusCode::UNPROCESSABLE_ENTITY);
            return;
        }
    };
    match accept_quote(&principal, &body.quote_id, body.note.as_deref()).await {
        Ok(accepted) => {
            let json = serde_json::to_string(&accepted).unwrap_or_default();
            let _ = replays.insert(&slot, json.as_bytes());
            res.render(Text::Json(json));
        }
        Err(QuoteError::Expired) => {
            res.status_code(StatusCode::GONE);
        }
        Err(e) => {
            res.status_code(StatusCode::BAD_GATEWAY);
            res.render(Text::Plain(e.to_string()));
        }
    }
}
