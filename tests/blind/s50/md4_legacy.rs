//! Legacy SOAP bridge: XML order messages (quick-xml) deduplicated before forwarding.
use bs58;
use md4::{Digest, Md4};
use quick_xml::de::from_str;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Mutex;

#[derive(Deserialize)]
pub struct OrderMsg {
    #[serde(rename = "@sku")]
    pub sku: String,
    #[serde(rename = "@qty")]
    pub qty: u32,
    #[serde(rename = "CorrelationId")]
    pub correlation_id: Option<String>,
}

pub struct Bridge {
    dedup_store: Mutex<BTreeMap<String, String>>,
    audit: Mutex<Vec<String>>,
}

impl Bridge {
    pub fn accept(&self, tenant_id: &str, user_id: &str, xml: &str) -> Result<String, String> {
        let msg: OrderMsg = from_str(xml).map_err(|e| e.to_string())?;
        let mut hasher = Md4::new();
        hasher.update(xml.as_bytes());
        let digest = hasher.finalize();
        let route = "orders.soap";
        let dedup_key = format!("{}/{}/{}/{}", tenant_id, user_id, route, bs58::encode(digest).into_string());

        if let Some(corr) = &msg.correlation_id {
            self.audit.lock().unwrap().push(format!("{tenant_id}:{corr}:{}", bs58::encode(digest).into_string()));
        }
        let mut store = self.dedup_store.lock().unwrap();
        if let Some(prev) = store.get(&dedup_key) {
            return Ok(prev.clone());
        }
        let ack = format!("<Ack sku=\"{}\" qty=\"{}\"/>", msg.sku, msg.qty);
        store.insert(dedup_key, ack.clone());
        Ok(ack)
    }
}
