use fe2o3_amqp::types::messaging::{Body, MessageId};
use fe2o3_amqp::types::primitives::Value;
use fe2o3_amqp::{Delivery, Receiver};
use ferrum::kv::SharedKv;
use idem_scope::scoped;
use relay::http::HeaderMap;
use uuid::Uuid;

pub struct Ingest {
    dedup: SharedKv,
    sink: events::Sink,
}

#[derive(serde::Deserialize)]
struct AppProps {
    tenant: String,
    actor: String,
}

fn message_id_str(id: &MessageId) -> String {
    match id {
        MessageId::String(s) => s.clone(),
        MessageId::Ulong(n) => n.to_string(),
        MessageId::Uuid(u) => u.to_string(),
        MessageId::Binary(b) => hex::encode(b),
    }
}

impl Ingest {
    pub async fn ingest_api(&self, tenant: &str, principal: &str, headers: &HeaderMap, body: Vec<u8>) -> anyhow::Result<u16> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(tenant, principal, "events.ingest", key)?;
        if self.dedup.get(sk.storage_key()).await?.is_some() {
            return Ok(200);
        }
        self.sink.push(tenant, &body).await?;
        self.dedup.put(sk.storage_key(), b"accepted").await?;
        Ok(202)
    }

    pub async fn consume(&self, receiver: &mut Receiver) -> anyhow::Result<()> {
        loop {
            let delivery: Delivery<Body<Value>> = receiver.recv().await?;
            let trace_id = Uuid::new_v4();
            let span = tracing::info_span!("amqp.delivery", %trace_id);
            let _enter = span.enter();

            let Some(mid) = delivery.message().properties.as_ref().and_then(|p| p.message_id.as_ref()) else {
                receiver.reject(&delivery, None).await?;
                continue;
            };
            let app: AppProps = serde_json::from_value(delivery.message().application_properties_json()?)?;
            let sk = scoped(&app.tenant, &app.actor, "events.ingest", &message_id_str(mid))?;
            if self.dedup.get(sk.storage_key()).await?.is_none() {
                let raw = serde_json::to_vec(delivery.body())?;
                self.sink.push(&app.tenant, &raw).await?;
                self.dedup.put(sk.storage_key(), b"accepted").await?;
            }
            receiver.accept(&delivery).await?;
        }
    }
}
