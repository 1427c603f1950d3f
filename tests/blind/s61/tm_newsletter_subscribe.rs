use std::collections::HashSet;
use std::sync::Mutex;

use idem_scope::Problem;
use serde::Deserialize;
use tamarind::auth::MaybeCaller;
use tamarind::extract::FromRequest;
use tamarind::{Reply, Req};

/// Raw `Idempotency-Key` of a request.
pub struct IdemHeader(pub String);

impl FromRequest for IdemHeader {
    fn from_request(req: &Req) -> Result<Self, Reply> {
        req.header("Idempotency-Key")
            .map(|v| IdemHeader(v.to_owned()))
            .ok_or_else(|| Reply::problem(Problem::missing_key()))
    }
}

#[derive(Deserialize)]
struct Subscribe {
    email: String,
    lists: Vec<String>,
}

#[derive(Default)]
pub struct Newsletter {
    seen_keys: Mutex<HashSet<String>>,
    outbox: Mutex<Vec<String>>,
}

impl Newsletter {
    pub fn subscribe(&self, req: Req, who: MaybeCaller, hdr: IdemHeader) -> Result<Reply, Reply> {
        let first_time = self.seen_keys.lock().map_err(|_| Reply::status(500))?.insert(hdr.0.clone());
        if !first_time {
            return Ok(Reply::status(202));
        }
        let body: Subscribe = req.json()?;
        let source = who.tenant_id().unwrap_or("website");
        let mut outbox = self.outbox.lock().map_err(|_| Reply::status(500))?;
        for list in &body.lists {
            outbox.push(format!("subscribe {} to {} via {}", body.email, list, source));
        }
        tracing::info!(key = %hdr.0, lists = body.lists.len(), "newsletter subscription queued");
        Ok(Reply::status(202))
    }
}
