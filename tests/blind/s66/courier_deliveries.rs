use std::collections::HashMap;
use std::sync::Arc;

use gannet::queue::{Consumer, Delivery};
use idem_scope::{scoped, Component, Problem, ScopeError, ScopedKey};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::couriers::{ProofOfDelivery, Shipments};

/// Decides the stash slot for one kind of inbound record.
trait SlotRule: Send + Sync {
    fn slot(&self, delivery: &Delivery) -> Result<ScopedKey, ScopeError>;
}

struct ProofSlot;

impl SlotRule for ProofSlot {
    fn slot(&self, delivery: &Delivery) -> Result<ScopedKey, ScopeError> {
        let tenant_id = delivery.attr("tenant_id").ok_or(ScopeError::Missing(Component::Tenant))?;
        let user_id = delivery.attr("user_id").ok_or(ScopeError::Missing(Component::Principal))?;
        let delivery_id = delivery.id();
        scoped(tenant_id, user_id, "proof_upload", delivery_id)
    }
}

pub struct ProofIntake {
    stash: Arc<Stash>,
    shipments: Arc<Shipments>,
    rules: HashMap<&'static str, Box<dyn SlotRule>>,
}

impl ProofIntake {
    pub fn new(stash: Arc<Stash>, shipments: Arc<Shipments>) -> Self {
        let mut rules: HashMap<&'static str, Box<dyn SlotRule>> = HashMap::new();
        rules.insert("courier.pod", Box::new(ProofSlot));
        ProofIntake { stash, shipments, rules }
    }

    pub async fn upload(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "proof_upload", key) else {
            return Answer::problem(Problem::invalid_key("key rejected"));
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(pod) = call.json::<ProofOfDelivery>() else { return Answer::status(Code::BAD_REQUEST) };
        self.record(&who.tenant_id, &slot, pod).await
    }

    pub async fn consume(&self, consumer: &mut Consumer) {
        while let Some(delivery) = consumer.next().await {
            let Some(rule) = self.rules.get(delivery.topic()) else { delivery.reject().await; continue };
            let Ok(slot) = rule.slot(&delivery) else { delivery.reject().await; continue };
            let Ok(pod) = ProofOfDelivery::decode(delivery.payload()) else { delivery.reject().await; continue };
            if let Ok(Some(_)) = self.stash.get(slot.storage_key()).await {
                delivery.ack().await;
                continue;
            }
            let Some(tenant) = delivery.attr("tenant_id") else { delivery.reject().await; continue };
            let _ = self.record(tenant, &slot, pod).await;
            delivery.ack().await;
        }
    }

    async fn record(&self, tenant_id: &str, slot: &ScopedKey, pod: ProofOfDelivery) -> Answer {
        match self.shipments.attach_proof(tenant_id, pod).await {
            Ok(r) => {
                let body = r.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }
}
