use idem_scope::{scoped, Fingerprint};
use marrow::Kv;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct OrderEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub order_id: String,
    pub kind: String,
}

pub struct FulfilmentReplays {
    kv: Kv,
    warehouse: crate::warehouse::Client,
}

fn redelivery_slot(evt: &OrderEvent) -> String {
    format!("redeliver:{}:{}", evt.tenant_id, evt.event_id)
}

impl FulfilmentReplays {
    pub async fn ship_now(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, raw: &[u8]) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "shipments.create", key)?;
        let fp = Fingerprint::of("shipments.create", raw);
        if let Some(prev) = self.kv.get(sk.storage_key().as_bytes())? {
            crate::replay::check_fingerprint(&prev, &fp)?;
            return Ok(prev[32..].to_vec());
        }
        let shipment = self.warehouse.ship(&caller.tenant_id, raw).await?;
        let mut value = fp.as_bytes().to_vec();
        value.extend_from_slice(&serde_json::to_vec(&shipment)?);
        self.kv.put(sk.storage_key().as_bytes(), &value)?;
        Ok(value[32..].to_vec())
    }

    pub async fn redeliver(&self, evt: OrderEvent) -> anyhow::Result<()> {
        let slot = redelivery_slot(&evt);
        if self.kv.get(slot.as_bytes())?.is_some() {
            return Ok(());
        }
        if evt.kind == "order.paid" {
            self.warehouse.reserve(&evt.tenant_id, &evt.order_id).await?;
        }
        self.kv.put(slot.as_bytes(), b"done")?;
        Ok(())
    }
}
