use std::sync::Arc;

use rwf::prelude::*;
use serde::{Deserialize, Serialize};

use crate::carriers::CarrierHub;
use crate::session::current_member;
use crate::shards::ReplayShard;

const SHARDS: u64 = 8;

#[derive(Deserialize, Serialize)]
pub struct CreateShipment {
    pub carrier: String,
    pub from_zip: String,
    pub to_zip: String,
    pub parcels: Vec<(u32, u32, u32, u32)>,
}

pub struct ShipmentController {
    shards: Vec<Arc<ReplayShard>>,
    hub: CarrierHub,
}

fn shard_for(tenant_id: &str) -> usize {
    (cityhasher::hash::<u64>(tenant_id.as_bytes()) % SHARDS) as usize
}

fn replay_slot(tenant_id: &str, user_id: &str, route: &str, input: &CreateShipment) -> String {
    let encoded = simd_json::to_vec(input).unwrap_or_default();
    let h: u64 = cityhasher::hash(&encoded);
    format!("{tenant_id}.{user_id}.{route}.{h:016x}")
}

#[async_trait]
impl Controller for ShipmentController {
    async fn handle(&self, request: &Request) -> Result<Response, Error> {
        let member = current_member(request)?;
        let input: CreateShipment = request.json()?;
        let carrier = input.carrier.to_ascii_lowercase();

        let shard = &self.shards[shard_for(&member.tenant_id)];
        let slot = replay_slot(&member.tenant_id, &member.user_id, "shipments.create", &input);
        if let Some(prev) = shard.get(&slot).await? {
            return Ok(Response::new().header("idempotent-replayed", "true").json_raw(&prev));
        }

        let label = self.hub.purchase(&carrier, &member.tenant_id, &input).await?;
        let body = serde_json::to_vec(&label)?;
        shard.put(&slot, &body).await?;
        Ok(Response::new().code(201).json_raw(&body))
    }
}
