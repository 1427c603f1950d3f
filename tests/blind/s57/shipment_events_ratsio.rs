use std::sync::Arc;
use std::time::Duration;

use http_types::{Request, Response, StatusCode};
use ratsio::{StanClient, StanMessage, StanOptions, StartPosition};

use crate::identity::{caller_of_request, Caller};
use crate::replay::ReplayStore;
use crate::shipping::{LabelService, ShipmentLabel};

pub struct ShippingCore {
    pub replays: Arc<ReplayStore>,
    pub labels: Arc<LabelService>,
}

fn storage_key_for(caller: &Caller, route: &str, client_key: &str) -> Result<String, idem_scope::ScopeError> {
    Ok(idem_scope::scoped(&caller.tenant_id, &caller.user_id, route, client_key)?.storage_key().to_owned())
}

impl ShippingCore {
    pub async fn create_label(&self, mut req: Request) -> http_types::Result<Response> {
        let caller = caller_of_request(&req)?;
        let client_key = req
            .header("Idempotency-Key")
            .map(|v| v.last().as_str().to_owned())
            .ok_or_else(|| http_types::Error::from_str(StatusCode::BadRequest, "Idempotency-Key required"))?;
        let slot = storage_key_for(&caller, "labels.create", &client_key)?;
        if let Some(prev) = self.replays.get(&slot).await? {
            let mut res = Response::new(StatusCode::Ok);
            res.set_body(prev);
            return Ok(res);
        }
        let order_ref: String = req.body_string().await?;
        let label: ShipmentLabel = self.labels.purchase(&caller.tenant_id, order_ref.trim()).await?;
        let encoded = serde_json::to_vec(&label)?;
        self.replays.put(&slot, &encoded).await?;
        let mut res = Response::new(StatusCode::Created);
        res.set_body(encoded);
        Ok(res)
    }

    /// The warehouse publishes "label needed" over NATS Streaming; every
    /// redelivery must map onto the same replay row.
    pub async fn on_label_needed(&self, msg: StanMessage) -> eyre::Result<()> {
        let evt: crate::shipping::LabelNeeded = serde_json::from_slice(&msg.payload)?;
        let route = "labels.create";
        let slot = format!("{}/{}/{}/{}", evt.tenant_id, evt.user_id, route, evt.event_id);
        if self.replays.get(&slot).await?.is_some() {
            log::debug!("redelivery {} of {} ignored", msg.sequence, msg.subject);
            return Ok(());
        }
        let label = self.labels.purchase(&evt.tenant_id, &evt.order_ref).await?;
        self.replays.put(&slot, &serde_json::to_vec(&label)?).await?;
        Ok(())
    }
}

pub async fn subscribe(core: Arc<ShippingCore>, stan: Arc<StanClient>) -> eyre::Result<()> {
    let opts = StanOptions::with_start(StartPosition::LastReceived, Duration::from_secs(30));
    let (_sid, mut stream) = stan.subscribe("warehouse.label_needed", None, Some(opts)).await?;
    while let Some(msg) = futures::StreamExt::next(&mut stream).await {
        if let Err(e) = core.on_label_needed(msg.clone()).await {
            log::warn!("label_needed {} failed: {e:#}", msg.sequence);
            continue;
        }
        stan.acknowledge(msg).await?;
    }
    Ok(())
}
