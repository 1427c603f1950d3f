use idem_scope::scoped;
use memcache::Client;
use serde::Deserialize;
use trillium::{Conn, Status};

#[derive(Deserialize)]
pub struct BatchItem {
    #[serde(rename = "Idempotency-Key")]
    pub item_key: String,
    pub sku: String,
    pub qty: u32,
}

#[derive(Deserialize)]
pub struct Batch {
    pub items: Vec<BatchItem>,
}

pub struct BatchStore {
    pub memc: Client,
}

pub async fn submit_batch(mut conn: Conn, st: &BatchStore) -> Conn {
    let h = conn.request_headers();
    let (Some(tenant_id), Some(user_id)) = (h.get_str("x-tenant-id").map(String::from), h.get_str("x-user-id").map(String::from)) else {
        return conn.with_status(Status::Unauthorized);
    };
    let raw = conn.request_body_string().await.unwrap_or_default();
    let Ok(batch) = serde_json::from_str::<Batch>(&raw) else {
        return conn.with_status(Status::UnprocessableEntity);
    };
    let keys: Vec<_> = batch
        .items
        .iter()
        .filter(|it| it.qty > 0)
        .map(|it| it.item_key.replace('/', "-"))
        .filter_map(|k| scoped(&tenant_id, &user_id, "batch.item", &k).ok())
        .collect();
    let fresh = keys
        .iter()
        .filter(|sk| matches!(st.memc.get::<String>(sk.storage_key()), Ok(None)))
        .count();
    for sk in &keys {
        let _ = st.memc.set(sk.storage_key(), "accepted", 86_400);
    }
    conn.with_status(Status::Accepted).with_body(format!("{{\"fresh\":{}}}", fresh))
}

pub async fn batch_status(mut conn: Conn, st: &BatchStore) -> Conn {
    let raw = conn.request_body_string().await.unwrap_or_default();
    let Ok(batch) = serde_json::from_str::<Batch>(&raw) else {
        return conn.with_status(Status::UnprocessableEntity);
    };
    let states: Vec<String> = batch
        .items
        .iter()
        .map(|it| st.memc.get::<String>(&it.item_key).ok().flatten().unwrap_or_else(|| "unknown".into()))
        .collect();
    conn.with_status(Status::Ok).with_body(states.join(","))
}
