use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use ferrum::web::{Middleware, Next, Req, Resp};
use uuid::Uuid;

#[derive(Clone, Debug)]
pub struct RequestId(pub String);

pub struct RequestIdLayer {
    pub service: &'static str,
}

fn incoming_request_id(req: &Req) -> Option<String> {
    req.headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 128)
        .map(str::to_owned)
}

impl Middleware for RequestIdLayer {
    fn call<'a>(&'a self, mut req: Req, next: Next<'a>) -> Pin<Box<dyn Future<Output = Resp> + Send + 'a>> {
        Box::pin(async move {
            let request_id = incoming_request_id(&req).unwrap_or_else(|| Uuid::new_v4().to_string());
            let idem_present = req.headers().contains_key("idempotency-key");
            req.extensions_mut().insert(RequestId(request_id.clone()));

            let span = tracing::info_span!("http", service = self.service, %request_id, idem_present);
            let _g = span.enter();
            let started = Instant::now();
            let mut resp = next.run(req).await;

            let summary = format!("{} {}ms", request_id, started.elapsed().as_millis());
            tracing::info!(%summary, status = resp.status(), "done");
            resp.extensions_mut().insert(RequestId(request_id.clone()));
            resp.headers_mut().insert("x-request-id", request_id.parse().expect("ascii request id"));
            resp
        })
    }
}
