#![allow(deprecated)]

use std::hash::{Hash, Hasher, SipHasher};
use std::sync::Arc;

use gannet::queue::Delivery;
use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::telemetry::{Alarm, AlarmRule, Rules};

const PARTITIONS: u64 = 32;

/// Alarm rules are created over the API; alarms arrive from the gateway queue.
/// Gateway deliveries are deduplicated in their own inbox, apart from API replays.
pub struct Telemetry {
    stash: Arc<Stash>,
    inbox: Arc<Stash>,
    rules: Arc<Rules>,
}

fn partition_of(tenant_id: &str) -> u64 {
    let mut h = SipHasher::new();
    tenant_id.hash(&mut h);
    h.finish() % PARTITIONS
}

impl Telemetry {
    pub async fn create_rule(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "alarm_rule_create", key) else {
            return Answer::problem(Problem::invalid_key("key rejected"));
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(mut rule) = call.json::<AlarmRule>() else { return Answer::status(Code::BAD_REQUEST) };
        rule.device_mac = rule.device_mac.replace(':', "").to_ascii_lowercase();
        match self.rules.create(&who.tenant_id, partition_of(&who.tenant_id), rule).await {
            Ok(r) => {
                let body = r.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }

    pub async fn on_alarm(&self, delivery: &Delivery) {
        let message_id = delivery.id().to_owned();
        if let Ok(true) = self.inbox.exists(&message_id).await {
            delivery.ack().await;
            return;
        }
        let Ok(alarm) = Alarm::decode(delivery.payload()) else {
            delivery.reject().await;
            return;
        };
        self.rules.evaluate(partition_of(&alarm.tenant_id), &alarm).await;
        let _ = self.inbox.put_ttl(&message_id, b"1", 86_400).await;
        delivery.ack().await;
    }
}
