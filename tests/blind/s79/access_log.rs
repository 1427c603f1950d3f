//! Access log relay: one line per request for the network operations
//! centre, with the caller, the request id and the idempotency key the
//! client sent (so support can match a member's retry to its first try).

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crosspoint::badge::Member;
use crosspoint::relay::{BoxReply, Onward, Relay};
use crosspoint::Inbound;

#[derive(Clone)]
pub struct AccessLog {
    pub sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Relay for AccessLog {
    fn call(&self, inb: Inbound, next: Onward) -> BoxReply {
        let sink = self.sink.clone();
        Box::pin(async move {
            let started = Instant::now();
            let method = inb.method().to_string();
            let path = inb.path().to_owned();
            let request_id = inb.header("X-Request-Id").unwrap_or("-").to_owned();
            let idem = inb.header("Idempotency-Key").unwrap_or("-").to_owned();
            let who = inb.badge::<Member>().map(|m| format!("{}/{}", m.tenant_id, m.user_id)).unwrap_or_else(|| "anonymous".to_owned());

            let span = tracing::info_span!("request", request_id = %request_id, idempotency_key = %idem);
            let _entered = span.enter();
            let resp = next.run(inb).await;

            let status = resp.as_ref().map(|r| r.status().as_u16()).unwrap_or(500);
            let line = format!("{method} {path} {status} who={who} rid={request_id} idem={idem} {}ms", started.elapsed().as_millis());
            if let Ok(mut w) = sink.lock() {
                let _ = writeln!(w, "{line}");
            }
            resp
        })
    }
}
