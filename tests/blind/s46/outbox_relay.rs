use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::{broadcast, RwLock};

#[derive(Clone)]
pub struct OutboxMessage {
    pub message_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub payload: Vec<u8>,
}

pub type IdemMap = Arc<RwLock<BTreeMap<String, Vec<u8>>>>;

pub async fn api_write(map: &IdemMap, tenant_id: &str, user_id: &str, headers: &[(String, String)], body: Vec<u8>) -> Option<()> {
    let k = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key"))?.1.clone();
    let key = idem_scope::scoped(tenant_id, user_id, "notify", &k).ok()?;
    map.write().await.insert(key.storage_key().to_owned(), body);
    Some(())
}

pub async fn relay(map: IdemMap, mut rx: broadcast::Receiver<OutboxMessage>) {
    while let Ok(msg) = rx.recv().await {
        let key = idem_scope::scoped(&msg.tenant_id, &msg.user_id, "notify", &msg.message_id);
        let Ok(key) = key else { continue };
        map.write().await.insert(key.storage_key().to_owned(), msg.payload.clone());
    }
}

pub async fn replay_dead_letter(map: &IdemMap, msg: &OutboxMessage) {
    let key = idem_scope::scoped(&msg.tenant_id, &msg.user_id, "notify", &format!("replay:{}", msg.message_id)).expect("scope");
    map.write().await.insert(key.storage_key().to_owned(), msg.payload.clone());
}
