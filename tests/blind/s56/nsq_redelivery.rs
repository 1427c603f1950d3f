use anyhow::Context as _;
use idem_scope::{scoped, Fingerprint, ScopedKey};
use marrow::Kv;
use serde::{Deserialize, Serialize};
use tokio_nsq::{NSQChannel, NSQConsumerConfig, NSQConsumerConfigSources, NSQEvent, NSQTopic};

#[derive(Deserialize)]
struct ChargeEvent {
    event_id: String,
    tenant_id: String,
    charge_id: String,
    amount_minor: i64,
}

#[derive(Serialize)]
struct StoredOutcome<'a> {
    fingerprint: &'a [u8],
    body: &'a [u8],
}

pub struct ChargeReplays {
    kv: Kv,
    webhooks: crate::webhooks::Sender,
}

impl ChargeReplays {
    /// Called by the HTTP layer once a client charge has been executed.
    pub fn record_client(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, fp: &Fingerprint, body: &[u8]) -> anyhow::Result<()> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .context("charge without Idempotency-Key")?;
        let sk: ScopedKey = scoped(&caller.tenant_id, &caller.user_id, "charges.create", key)?;
        let value = serde_json::to_vec(&StoredOutcome { fingerprint: fp.as_bytes(), body })?;
        self.kv.put(sk.storage_key().as_bytes(), &value)?;
        Ok(())
    }

    async fn on_event(&self, evt: ChargeEvent) -> anyhow::Result<()> {
        let slot = format!("replay:{}", evt.event_id);
        if self.kv.get(slot.as_bytes())?.is_some() {
            log::debug!("event {} already forwarded", evt.event_id);
            return Ok(());
        }
        let receipt = self.webhooks.forward(&evt.tenant_id, &evt.charge_id, evt.amount_minor).await?;
        self.kv.put(slot.as_bytes(), &serde_json::to_vec(&receipt)?)?;
        Ok(())
    }

    pub async fn run(&self, nsqd: &str) -> anyhow::Result<()> {
        let topic = NSQTopic::new("charge_events").context("topic")?;
        let channel = NSQChannel::new("webhook_forwarder").context("channel")?;
        let mut consumer = NSQConsumerConfig::new(topic, channel)
            .set_max_in_flight(32)
            .set_sources(NSQConsumerConfigSources::Daemons(vec![nsqd.to_string()]))
            .build();
        loop {
            match consumer.consume_filtered().await {
                Some(NSQEvent::Message(message)) => {
                    let evt: ChargeEvent = match serde_json::from_slice(&message.body) {
                        Ok(evt) => evt,
                        Err(e) => {
                            log::warn!("dropping malformed charge event: {e}");
                            message.finish().await;
                            continue;
                        }
                    };
                    match self.on_event(evt).await {
                        Ok(()) => message.finish().await,
                        Err(e) => {
                            log::warn!("requeue: {e:#}");
                            message.requeue(tokio_nsq::NSQRequeueDelay::DefaultDelay).await
                        }
                    }
                }
                Some(_) => {}
                None => return Ok(()),
            }
        }
    }
}
