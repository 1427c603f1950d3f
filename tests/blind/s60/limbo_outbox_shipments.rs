use std::collections::HashMap;
use std::sync::Mutex;

use anyhow::Result;
use gimbal::{Ctx, Json, Reply};
use limbo::Connection;
use serde::Deserialize;

use crate::carriers::{Carrier, Shipment};

pub const OUTBOX_DDL: &str = "CREATE TABLE IF NOT EXISTS shipment_outbox (
    event_id   TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    payload    BLOB NOT NULL,
    relayed_at INTEGER
)";

type Slot = (String, String, &'static str, String);

#[derive(Deserialize)]
pub struct ShipmentRequest {
    pub address: String,
    pub parcels: u32,
}

pub struct Shipping {
    created: Mutex<HashMap<Slot, Shipment>>,
    carrier: Carrier,
}

impl Shipping {
    pub async fn create(&self, ctx: Ctx, Json(req): Json<ShipmentRequest>) -> Result<Reply> {
        let auth = ctx.auth();
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::status(400));
        };
        let slot: Slot = (auth.tenant_id.clone(), auth.user_id.clone(), "shipments.create", k.to_owned());
        if let Some(s) = self.created.lock().unwrap().get(&slot).cloned() {
            return Ok(Reply::replay_json(&s));
        }
        let shipment = self.carrier.book(&auth.tenant_id, &req.address, req.parcels).await?;
        self.created.lock().unwrap().insert(slot, shipment.clone());
        Ok(Reply::created_json(&shipment))
    }

    pub async fn relay_outbox(&self, conn: &Connection) -> Result<usize> {
        let mut rows = conn
            .query("SELECT event_id, tenant_id, user_id, payload FROM shipment_outbox WHERE relayed_at IS NULL LIMIT 100", ())
            .await?;
        let mut relayed = 0;
        while let Some(row) = rows.next().await? {
            let event_id: String = row.get(0)?;
            let tenant_id: String = row.get(1)?;
            let user_id: String = row.get(2)?;
            let payload: Vec<u8> = row.get(3)?;

            let slot: Slot = (tenant_id.clone(), user_id.clone(), "shipments.create", event_id.clone());
            if !self.created.lock().unwrap().contains_key(&slot) {
                let req: ShipmentRequest = serde_json::from_slice(&payload)?;
                let shipment = self.carrier.book(&tenant_id, &req.address, req.parcels).await?;
                self.created.lock().unwrap().insert(slot, shipment);
            }
            conn.execute("UPDATE shipment_outbox SET relayed_at = unixepoch() WHERE event_id = ?1", [event_id.as_str()])
                .await?;
            relayed += 1;
        }
        Ok(relayed)
    }
}
