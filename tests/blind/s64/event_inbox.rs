use std::time::Duration;

use hreq::prelude::*;
use idem_scope::{scoped, scoped_server, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
struct ShipmentEvent {
    id: String,
    tenant_id: String,
    user_id: String,
    status: String,
}

pub struct Shipments {
    pub replies: Locker,
    pub inbox: Locker,
    pub fulfilment_url: String,
}

impl Shipments {
    pub async fn update_http(&self, caller: Caller, head: Head, body: RawBody) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "shipment_update", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.replies.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let _ = self.replies.put(sk.storage_key(), body.as_bytes(), Duration::from_secs(86_400)).await;
        Reply::status(Status::ACCEPTED)
    }

    pub async fn on_carrier_event(&self, body: &[u8]) -> eyre::Result<()> {
        let evt: ShipmentEvent = serde_json::from_slice(body)?;
        tracing::info!(event_id = %evt.id, status = %evt.status, "carrier event");
        let inbox_key = format!("{}/{}", evt.tenant_id, evt.id);
        if !self.inbox.set_nx(&inbox_key, b"1", Duration::from_secs(7 * 86_400)).await? {
            return Ok(());
        }
        let sk = scoped_server(&evt.tenant_id, &evt.user_id, "shipment_update", &evt.id)?;
        self.replies.put(sk.storage_key(), evt.status.as_bytes(), Duration::from_secs(86_400)).await?;
        let resp = Request::post(&self.fulfilment_url)
            .header("Idempotency-Key", &evt.id)
            .with_body(body.to_vec())?
            .await?;
        if !resp.status().is_success() {
            eyre::bail!("fulfilment returned {}", resp.status());
        }
        Ok(())
    }
}
