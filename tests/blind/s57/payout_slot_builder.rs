use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use http_types::{Request, Response, StatusCode};
use timedmap::TimedMap;

use crate::identity::{resolve_caller, Caller};
use crate::payouts::{Payout, PayoutEngine, PayoutInput};

pub struct SlotBuilder {
    tenant: String,
    principal: String,
    route: String,
    client_key: String,
}

impl SlotBuilder {
    pub fn new() -> Self {
        SlotBuilder {
            tenant: String::new(),
            principal: String::new(),
            route: String::new(),
            client_key: String::new(),
        }
    }

    pub fn tenant(mut self, v: &str) -> Self {
        self.tenant = v.to_owned();
        self
    }

    pub fn principal(mut self, v: &str) -> Self {
        self.principal = v.to_owned();
        self
    }

    pub fn route(mut self, v: &str) -> Self {
        self.route = v.to_owned();
        self
    }

    pub fn client_key(mut self, v: &str) -> Self {
        self.client_key = v.to_owned();
        self
    }

    pub fn build(self) -> String {
        let mut out = String::with_capacity(96);
        let _ = write!(out, "{}/{}/{}/{}", self.tenant, self.principal, self.route, self.client_key);
        out
    }
}

pub struct PayoutApp {
    pub seen: Arc<TimedMap<String, Vec<u8>>>,
    pub engine: PayoutEngine,
}

fn location_for(p: &Payout) -> String {
    let mut loc = String::new();
    let _ = write!(loc, "/v2/payouts/{}", p.id);
    loc
}

pub async fn handle(app: Arc<PayoutApp>, mut req: Request) -> http_types::Result<Response> {
    let caller: Caller = resolve_caller(&req)?;
    let key = match req.header("Idempotency-Key") {
        Some(values) => values.last().as_str().to_owned(),
        None => return Ok(Response::new(StatusCode::BadRequest)),
    };

    let slot = SlotBuilder::new()
        .tenant(&caller.tenant_id)
        .principal(&caller.principal_id)
        .route("payouts.create")
        .client_key(&key)
        .build();

    if let Some(cached) = app.seen.get(&slot) {
        let mut res = Response::new(StatusCode::Ok);
        res.insert_header("Idempotency-Key", key.as_str());
        res.insert_header("Idempotent-Replayed", "true");
        res.set_body(cached);
        return Ok(res);
    }

    let input: PayoutInput = req.body_json().await?;
    let payout = app.engine.submit(&caller.tenant_id, input).await?;
    let body = serde_json::to_vec(&payout)?;
    app.seen.insert(slot, body.clone(), Duration::from_secs(86_400));

    let mut res = Response::new(StatusCode::Created);
    res.insert_header("Location", location_for(&payout));
    res.set_body(body);
    Ok(res)
}
