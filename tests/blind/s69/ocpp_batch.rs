//! Offline chargers upload buffered OCPP `TransactionEvent`s in batches
//! when they reconnect. Each event carries the app's `Idempotency-Key`
//! (copied into `customData.idempotencyKey` by the mobile app, documented in
//! the OCPP integration guide) and the charger's own sequence number.

use std::time::Duration;

use garner::bin::Bin;
use garner::lease::Leases;
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct CustomData {
    /// The client's idempotency key for the start request that created
    /// this transaction (the `Idempotency-Key` the app sent).
    #[serde(rename = "idempotencyKey")]
    pub idempotency_key: String,
}

#[derive(Deserialize)]
pub struct TxEvent {
    pub seq_no: u64,
    pub org_id: String,
    pub user_id: String,
    pub meter_wh: Option<u64>,
    #[serde(rename = "customData")]
    pub custom: CustomData,
}

pub async fn drain(charger_id: &str, events: Vec<TxEvent>, bin: &Bin, leases: &Leases) -> usize {
    let Ok(lease) = leases.acquire(charger_id, Duration::from_secs(300)).await else {
        return 0;
    };
    let mut applied = 0;
    for ev in events {
        let Ok(sk) = scoped(&ev.org_id, &ev.user_id, "/v1/sessions/start", &ev.custom.idempotency_key) else {
            continue;
        };
        if !bin.claim(sk.storage_key(), Duration::from_secs(30)).await.unwrap_or(false) {
            continue;
        }
        let Some(wh) = ev.meter_wh else {
            continue;
        };
        crate::sessions::apply_meter(charger_id, ev.seq_no, wh).await;
        let _ = bin.complete(sk.storage_key(), &ev.seq_no.to_be_bytes()).await;
        applied += 1;
    }
    let _ = leases.release(lease).await;
    applied
}
