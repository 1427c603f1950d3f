use std::sync::Arc;

use crc_fast::{checksum, CrcAlgorithm};
use idem_scope::scoped;
use minicbor::Encode;
use quarry::kv::Vault;
use serde::Deserialize;
use volga::headers::HttpHeaders;
use volga::{ok, status, App, Json};

pub trait DedupToken {
    fn dedup_token(&self) -> String;
}

#[derive(Deserialize, Encode)]
pub struct ShipmentRequest {
    #[n(0)] pub carrier: String,
    #[n(1)] pub parcels: Vec<u32>,
    #[n(2)] pub deliver_to: String,
}

pub struct ServiceToken(pub String);

impl DedupToken for ShipmentRequest {
    fn dedup_token(&self) -> String {
        let bytes = minicbor::to_vec(self).expect("encodable");
        format!("{:016x}", checksum(CrcAlgorithm::Crc64Nvme, &bytes))
    }
}

impl DedupToken for ServiceToken {
    fn dedup_token(&self) -> String {
        format!("{:016x}", checksum(CrcAlgorithm::Crc64Nvme, self.0.as_bytes()))
    }
}

pub struct ShipState {
    idem: Arc<Vault>,
    token_cache: Arc<Vault>,
    carrier_api: carriers::Api,
}

pub fn map_shipments(app: &mut App, state: Arc<ShipState>) {
    app.map_post("/v1/shipments", move |headers: HttpHeaders, req: Json<ShipmentRequest>| {
        let state = state.clone();
        async move {
            let Some(raw) = headers.get("authorization").and_then(|v| v.to_str().ok()) else {
                return status!(401);
            };
            let token = ServiceToken(raw.trim_start_matches("Bearer ").to_owned());
            let auth = match state.token_cache.get(&token.dedup_token()).await? {
                Some(bytes) => auth_ctx::decode(&bytes)?,
                None => {
                    let ctx = state.carrier_api.introspect(&token.0).await?;
                    state.token_cache.put(&token.dedup_token(), auth_ctx::encode(&ctx)).await?;
                    ctx
                }
            };

            let sk = scoped(&auth.tenant_id, &auth.sub, "shipments.create", &req.dedup_token())?;
            if let Some(prev) = state.idem.get(sk.storage_key()).await? {
                return ok!(String::from_utf8_lossy(&prev).into_owned());
            }
            let label = state.carrier_api.book(&req.carrier, &req.parcels, &req.deliver_to).await?;
            state.idem.put(sk.storage_key(), label.clone().into_bytes()).await?;
            ok!(label)
        }
    });
}
