use std::sync::{Arc, Mutex};

use lru_cache::LruCache;

use futures::executor::block_on;
use rusty_tarantool::tarantool::{Client, IteratorType};
use sapper::{Request as SapperRequest, Response as SapperResponse, Result as SapperResult, SapperModule, SapperRouter};
use serde::Deserialize;

const SPACE_SUBSCRIPTIONS: i32 = 613;

pub struct Subscriptions {
    db: Arc<Client>,
    recent: Mutex<LruCache<String, StoredReply>>,
}

#[derive(Deserialize)]
pub struct StoredReply {
    status: u16,
    body: String,
}

fn header(req: &SapperRequest, name: &str) -> Option<String> {
    req.headers()
        .get_raw(name)
        .and_then(|values| values.first())
        .and_then(|v| String::from_utf8(v.clone()).ok())
}

impl Subscriptions {
    fn replay_status(&self, req: &mut SapperRequest) -> SapperResult<SapperResponse> {
        let Some(key) = header(req, "Idempotency-Key") else {
            return Ok(SapperResponse::with_status(400));
        };
        let seen = match self.recent.lock() {
            Ok(recent) => recent.contains_key(&key),
            Err(_) => return Ok(SapperResponse::with_status(503)),
        };
        let mut res = SapperResponse::new();
        res.set_status(if seen { 200 } else { 404 });
        res.write_body(if seen { "seen" } else { "unknown" });
        Ok(res)
    }

    fn list_for_account(&self, req: &mut SapperRequest) -> SapperResult<SapperResponse> {
        let Some(account_id) = header(req, "X-Account-Id") else {
            return Ok(SapperResponse::with_status(401));
        };
        let rows: Vec<(String, String)> = block_on(
            self.db.select(SPACE_SUBSCRIPTIONS, 1, &(account_id.as_str(),), 0, 100, IteratorType::Eq),
        )
        .map_err(|e| sapper::Error::InvalidInput(e.to_string()))?
        .decode()
        .unwrap_or_default();
        let location = format!("/v1/accounts/{}/subscriptions", account_id);
        let mut res = SapperResponse::new();
        res.headers_mut().set_raw("Content-Location", vec![location.into_bytes()]);
        res.write_body(serde_json::to_string(&rows).unwrap_or_default());
        Ok(res)
    }
}

impl SapperModule for Subscriptions {
    fn router(&self, router: &mut SapperRouter) -> SapperResult<()> {
        router.get("/v1/replays", Subscriptions::replay_status);
        router.get("/v1/subscriptions", Subscriptions::list_for_account);
        Ok(())
    }
}
