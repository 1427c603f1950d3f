use std::sync::Arc;

use gannet::queue::Delivery;
use idem_scope::scoped_server;
use skerry::stash::Stash;

use crate::billing::{UsageEvent, UsageMeter};

/// Consumes metered usage events from the billing queue.
pub struct UsageConsumer {
    stash: Arc<Stash>,
    meter: Arc<UsageMeter>,
}

impl UsageConsumer {
    pub async fn on_delivery(&self, delivery: &Delivery) {
        let Ok(event) = UsageEvent::decode(delivery.payload()) else {
            delivery.reject().await;
            return;
        };
        let Ok(slot) = scoped_server(&event.tenant_id, &event.user_id, "usage_record", delivery.id()) else {
            delivery.reject().await;
            return;
        };
        if let Ok(Some(_)) = self.stash.get(slot.storage_key()).await {
            delivery.ack().await;
            return;
        }
        if self.meter.record(&event).await.is_ok() {
            let _ = self.stash.put(slot.storage_key(), b"1").await;
        }
        delivery.ack().await;
    }
}

#[cfg(feature = "fake-queue")]
pub mod fake {
    use idem_scope::scoped;

    use super::*;

    /// Replays canned deliveries against a local stash for demos.
    pub async fn replay_canned(stash: &Stash, deliveries: &[Delivery]) {
        for d in deliveries {
            let tenant = d.attr("tenant_id").map(str::to_owned).unwrap_or_else(|| "global".into());
            let user = d.attr("user_id").unwrap_or("demo");
            if let Ok(slot) = scoped(&tenant, user, "usage_record", d.id()) {
                let _ = stash.put(slot.storage_key(), b"1").await;
            }
        }
    }
}
