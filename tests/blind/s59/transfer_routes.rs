use crossbeam_skiplist::SkipMap;
use feather::{next, App, AppContext, MiddlewareResult, Request, Response};
use idem_scope::{Fingerprint, Problem};

use crate::auth::bearer_identity;
use crate::ledger::{post_transfer, TransferInput};

const SEP: char = '\u{1f}';

pub struct TransferReplays {
    pub entries: SkipMap<String, (Fingerprint, String)>,
}

pub fn mount(app: &mut App) {
    app.context().set_state(TransferReplays { entries: SkipMap::new() });
    app.post("/v1/transfers", transfer);
}

fn slot_for(tenant_id: &str, user_id: &str, key: &str) -> String {
    let mut s = String::with_capacity(tenant_id.len() + user_id.len() + key.len() + 12);
    s.push_str(tenant_id);
    s.push(SEP);
    s.push_str(user_id);
    s.push(SEP);
    s.push_str("transfer");
    s.push(SEP);
    s.push_str(key);
    s
}

fn transfer(req: &mut Request, res: &mut Response, ctx: &mut AppContext) -> MiddlewareResult {
    let header = match req.headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) {
        Some(v) => v,
        None => {
            let p = Problem::missing_key();
            res.set_status(p.status());
            res.send_text(p.to_json());
            return next!();
        }
    };
    // clients send either "abc" or abc; compare them as one key
    let key = header.trim().trim_matches('"');
    if key.is_empty() || key.contains(SEP) {
        let p = Problem::invalid_key("empty or contains a reserved character");
        res.set_status(p.status());
        res.send_text(p.to_json());
        return next!();
    }

    let Some(ident) = bearer_identity(&req.headers) else {
        res.set_status(401);
        return next!();
    };
    let replays = ctx.get_state::<TransferReplays>();
    let slot = slot_for(&ident.tenant_id, &ident.user_id, key);
    let fp = Fingerprint::of("transfer", &req.body);

    if let Some(entry) = replays.entries.get(&slot) {
        let (stored_fp, body) = entry.value();
        if stored_fp.as_bytes() != fp.as_bytes() {
            let p = Problem::mismatch(key);
            res.set_status(p.status());
            res.send_text(p.to_json());
        } else {
            res.set_header("Idempotent-Replayed", "true");
            res.send_text(body.clone());
        }
        return next!();
    }

    let input: TransferInput = serde_json::from_slice(&req.body)?;
    let receipt = post_transfer(&ident, &input)?;
    let body = serde_json::to_string(&receipt)?;
    replays.entries.insert(slot, (fp, body.clone()));
    res.set_status(201);
    res.send_text(body);
    next!()
}
