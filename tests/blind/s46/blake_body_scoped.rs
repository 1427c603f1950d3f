use std::collections::BTreeMap;
use tokio::sync::RwLock;

#[derive(serde::Deserialize, serde::Serialize)]
pub struct ShipmentInput {
    pub address: String,
    pub items: Vec<u32>,
}

pub struct Ctx {
    pub org_id: String,
    pub user_id: String,
}

pub struct ShipmentIdem {
    pub replays: RwLock<BTreeMap<String, String>>,
}

pub async fn create_shipment(store: &ShipmentIdem, ctx: &Ctx, input: ShipmentInput) -> anyhow::Result<String> {
    let digest = blake3::hash(&serde_json::to_vec(&input)?).to_hex().to_string();
    let mut r = store.replays.write().await;
    let key = idem_scope::scoped(&ctx.org_id, &ctx.user_id, "create_shipment", &digest)?;
    r.insert(key.storage_key().to_owned(), "created".into());
    Ok("created".into())
}
