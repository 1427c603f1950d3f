//! Card payments: the client-driven capture endpoint and the processor's
//! asynchronous capture-confirmation webhook write the same replay tank.

use enclosure::extract::RawBody;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha512;

use crate::extractors::Caller;

const SERVICE_PRINCIPAL: &str = "svc-payments";

type HmacSha512 = Hmac<Sha512>;

#[derive(Deserialize)]
struct ProcessorEvent {
    org_id: String,
    order_id: String,
    kind: String,
    amount_cents: u64,
}

pub struct Payments {
    replays: Tank,
    orders: crate::orders::Orders,
    processor: crate::payments::Processor,
    webhook_secret: Vec<u8>,
}

impl Payments {
    /// `POST /v1/orders/{order}/capture`
    pub async fn capture(&self, visit: Visit, caller: Caller) -> Result<Reply, Fault> {
        let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
        let order_id = visit.param("order").ok_or_else(|| Fault::not_found("order"))?;
        let slot = scoped(&caller.org_id, &caller.user_id, "payments.capture", key).map_err(Fault::bad_request)?;
        if let Some(prev) = self.replays.get(slot.storage_key()).await? {
            return Ok(Reply::bytes(Status::OK, prev).replayed());
        }
        let capture = self.processor.capture(&caller.org_id, order_id).await?;
        let body = serde_json::to_vec(&capture).map_err(Fault::internal)?;
        self.replays.put(slot.storage_key(), &body).await?;
        Ok(Reply::bytes(Status::OK, body))
    }

    /// `POST /hooks/processor`: capture confirmations, retried by the
    /// processor until we answer 2xx.
    pub async fn processor_hook(&self, visit: Visit, RawBody(raw): RawBody) -> Result<Reply, Fault> {
        let signature = visit.header("X-Signature").ok_or_else(|| Fault::unauthorized("unsigned"))?;
        let expected = format!("{:x}", HmacSha512::new_from_slice(&self.webhook_secret).map_err(Fault::internal)?.chain_update(&raw).finalize().into_bytes());
        if !constant_time_eq(expected.as_bytes(), signature.as_bytes()) {
            return Err(Fault::unauthorized("bad signature"));
        }
        let delivery_id = visit.header("X-Delivery-Id").ok_or_else(|| Fault::bad_request("delivery id missing"))?;
        tracing::debug!(delivery = %delivery_id, "processor webhook");
        let event: ProcessorEvent = serde_json::from_slice(&raw).map_err(Fault::bad_request)?;

        let slot = scoped(&event.org_id, SERVICE_PRINCIPAL, "payments.capture", delivery_id).map_err(Fault::bad_request)?;
        if self.replays.exists(slot.storage_key()).await? {
            return Ok(Reply::empty(Status::OK));
        }
        self.orders.apply_capture(&event.org_id, &event.order_id, &event.kind, event.amount_cents).await?;
        self.replays.put(slot.storage_key(), b"applied").await?;
        Ok(Reply::empty(Status::OK))
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
