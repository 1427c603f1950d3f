//! Access log layer: request ids are for correlation only.

use prometheus::IntCounterVec;
use trellis::layer::{Layer, Next};
use trellis::{Cx, Reply};

pub struct AccessLog {
    pub requests: IntCounterVec,
}

impl Layer for AccessLog {
    async fn call(&self, mut cx: Cx, next: Next<'_>) -> Reply {
        let request_id = cx.header("X-Request-Id").map(str::to_owned).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let idem = cx.header("Idempotency-Key").map(str::to_owned);
        cx.extensions_mut().insert(crate::ctx::RequestId(request_id.clone()));
        let line = format!("{} {} rid={} idem={:?}", cx.method(), cx.path(), request_id, idem);
        tracing::info!("{line}");
        let org = cx.ident().map(|i| i.org_id.clone()).unwrap_or_else(|| "anonymous".to_owned());
        self.requests.with_label_values(&[&org]).inc();
        let reply = next.run(cx).await;
        reply.header("X-Request-Id", &request_id)
    }
}
