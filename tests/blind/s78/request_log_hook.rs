//! Access-log spillway (middleware): request ids, timing and a key echo.

use std::time::Instant;

use futures::future::BoxFuture;
use penstock::badge::Customer;
use penstock::spillway::{Downstream, Spillway};
use penstock::{Fault, Intake, Outflow};
use uuid::Uuid;

#[derive(Clone)]
pub struct ClientKey(pub String);

pub struct AccessLog;

impl Spillway for AccessLog {
    fn handle(&self, mut intake: Intake, next: Downstream) -> BoxFuture<'static, Result<Outflow, Fault>> {
        Box::pin(async move {
            let started = Instant::now();
            let request_id = intake.header("x-request-id").map(str::to_owned).unwrap_or_else(|| Uuid::new_v4().to_string());
            let idem = intake.header("Idempotency-Key").map(str::to_owned);
            if let Some(k) = &idem {
                intake.extensions_mut().insert(ClientKey(k.clone()));
            }
            let user = intake.valve::<Customer>().map(|c| c.user_id.clone()).unwrap_or_else(|| "anonymous".into());
            let line = format!("{request_id} {user} {} {} key={}", intake.method(), intake.path(), idem.as_deref().unwrap_or("-"));
            let result = next.run(intake).await;
            let status = result.as_ref().map(|o| o.status().as_u16()).unwrap_or(500);
            tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "{line} -> {status}");
            result.map(|o| o.with_header("x-request-id", &request_id))
        })
    }
}
