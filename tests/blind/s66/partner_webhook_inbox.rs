use std::sync::Arc;

use idem_scope::{scoped, scoped_server, Problem};
use lintel::{Answer, Call, Code};
use rust_sodium::crypto::auth::hmacsha256;
use skerry::stash::Stash;
use slog::{info, Logger};

use crate::fulfilment::{Fulfilment, ShipmentEvent, ShipmentRequest};
use crate::partners::PartnerSecrets;

/// Shipment requests come from the merchant API; status events come back
/// from the 3PL as signed webhooks. Both are deduplicated in one stash.
pub struct FulfilmentHooks {
    stash: Arc<Stash>,
    fulfilment: Arc<Fulfilment>,
    secrets: Arc<PartnerSecrets>,
    log: Logger,
}

impl FulfilmentHooks {
    pub async fn request_shipment(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "shipment_request", key) else {
            return Answer::problem(Problem::invalid_key("key rejected"));
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(req) = call.json::<ShipmentRequest>() else { return Answer::status(Code::BAD_REQUEST) };
        match self.fulfilment.request(&who.tenant_id, &req).await {
            Ok(s) => {
                let body = s.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::BAD_GATEWAY, &e.to_string()),
        }
    }

    pub async fn status_hook(&self, call: Call, partner: &str) -> Answer {
        let Some(secret) = self.secrets.hook_key(partner) else { return Answer::status(Code::NOT_FOUND) };
        let Some(sig) = call.header("X-3PL-Signature").and_then(|s| hmacsha256::Tag::from_hex(s)) else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        if !hmacsha256::verify(&sig, call.body(), &secret) {
            return Answer::status(Code::UNAUTHORIZED);
        }
        let Some(delivery_id) = call.header("X-3PL-Delivery") else { return Answer::status(Code::BAD_REQUEST) };
        let Ok(event) = call.json::<ShipmentEvent>() else { return Answer::status(Code::BAD_REQUEST) };
        info!(self.log, "3pl delivery"; "partner" => partner, "delivery" => delivery_id);

        let Ok(slot) = scoped_server(&event.tenant_id, &event.user_id, "shipment_status", delivery_id) else {
            return Answer::status(Code::UNPROCESSABLE_ENTITY);
        };
        if let Ok(Some(_)) = self.stash.get(slot.storage_key()).await {
            return Answer::status(Code::OK);
        }
        if self.fulfilment.apply_status(&event).await.is_ok() {
            let _ = self.stash.put(slot.storage_key(), b"applied").await;
        }
        Answer::status(Code::OK)
    }
}
