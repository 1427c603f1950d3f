//! Charge endpoint served straight from a tiny_http accept loop.

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use moka::sync::Cache;
use tiny_http::{Request, Response, Server};
use tracing::info;

#[derive(Clone)]
struct CachedReply {
    status: u16,
    body: Vec<u8>,
}

pub struct ChargeApi {
    replies: Cache<String, CachedReply>,
    ledger: Arc<Ledger>,
}

fn header_value<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

impl ChargeApi {
    pub fn new(ledger: Arc<Ledger>) -> Self {
        let replies = Cache::builder()
            .time_to_live(Duration::from_secs(24 * 3600))
            .max_capacity(50_000)
            .build();
        ChargeApi { replies, ledger }
    }

    pub fn run(self, addr: &str) -> std::io::Result<()> {
        let server = Server::http(addr).map_err(|e| std::io::Error::new(std::io::ErrorKind::Other, e))?;
        for req in server.incoming_requests() {
            if let Err(e) = self.handle(req) {
                tracing::warn!(error = %e, "failed to answer request");
            }
        }
        Ok(())
    }

    fn handle(&self, mut req: Request) -> std::io::Result<()> {
        let request_id = header_value(&req, "X-Request-Id").unwrap_or("-").to_owned();
        info!(request_id = %request_id, url = req.url(), "incoming charge");

        let Some(req_token) = header_value(&req, "Idempotency-Key").map(str::to_owned) else {
            return req.respond(Response::from_string("missing Idempotency-Key").with_status_code(400));
        };

        if let Some(hit) = self.replies.get(&req_token) {
            return req.respond(Response::from_data(hit.body).with_status_code(hit.status));
        }

        let mut body = Vec::new();
        req.as_reader().read_to_end(&mut body)?;
        let outcome = self.ledger.charge(&body);
        let reply = CachedReply { status: outcome.status, body: outcome.body };
        self.replies.insert(req_token.clone(), reply.clone());
        req.respond(Response::from_data(reply.body).with_status_code(reply.status))
    }
}
