use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use idem_scope::{scoped, Problem};
use pencil::{jsonify, Pencil, PencilResult, Request, Response};
use sluice::kv::SyncBucket;

use crate::links::{PaymentLink, redeem_link};

const MERCHANT_ID_NOT_FOUND: &str = "merchant-not-found";
const MAX_TIP_PERCENT: u8 = 30;

pub struct LinkRoutes {
    links: Arc<RwLock<HashMap<String, PaymentLink>>>,
    replays: Arc<SyncBucket>,
}

impl LinkRoutes {
    pub fn mount(self, app: &mut Pencil) {
        let me = Arc::new(self);
        app.post("/l/<code:string>/redeem", "redeem_link", move |r: &mut Request| me.redeem(r));
    }

    fn redeem(&self, request: &mut Request) -> PencilResult {
        let code = request.view_args.get("code").cloned().unwrap_or_default();
        let Some(client_key) = request.headers().get_raw("Idempotency-Key").and_then(|v| v.first()).and_then(|b| std::str::from_utf8(b).ok()).map(str::to_owned) else {
            return Ok(Response::from(Problem::missing_key().to_json()).with_status(400));
        };
        let caller_id = match request.headers().get_raw("X-Payer-Id").and_then(|v| v.first()) {
            Some(p) => String::from_utf8_lossy(p).into_owned(),
            None => return Ok(Response::from("payer required").with_status(401)),
        };
        let links = self.links.read().unwrap();
        let merchant_id = links.get(&code).map(|l| l.merchant_id.as_str()).unwrap_or(MERCHANT_ID_NOT_FOUND);
        let tip_percent = request.args().get("tip").and_then(|t| t.parse::<u8>().ok()).unwrap_or(0).min(MAX_TIP_PERCENT);

        let sk = match scoped(merchant_id, &caller_id, "links.redeem", &client_key) {
            Ok(k) => k,
            Err(e) => return Ok(Response::from(Problem::invalid_key(&e.to_string()).to_json()).with_status(400)),
        };
        if let Ok(Some(prev)) = self.replays.get::<serde_json::Value>(sk.storage_key()) {
            return jsonify(&prev);
        }
        let receipt = match links.get(&code) {
            Some(link) => redeem_link(link, &caller_id, tip_percent)?,
            None => return Ok(Response::from("unknown link").with_status(404)),
        };
        let value = serde_json::to_value(&receipt)?;
        let _ = self.replays.put(sk.storage_key(), &value);
        jsonify(&value)
    }
}
