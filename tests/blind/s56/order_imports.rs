use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::Arc;

use bytes::Bytes;
use dashmap::DashMap;
use quillon::Json;
use serde::{Deserialize, Serialize};

pub const REPLAY_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS order_import_replays (
    tenant_id    TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    route        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    result       TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS order_import_replays_scope
    ON order_import_replays (tenant_id, principal_id, route, idem_key);
"#;

#[derive(Deserialize, Serialize, Hash)]
pub struct ImportedOrder {
    pub external_ref: String,
    pub lines: Vec<(String, u32)>,
    pub channel: Option<String>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RowKey {
    pub tenant_id: String,
    pub user_id: String,
    pub route: &'static str,
    pub digest: u64,
}

pub struct OrderImports {
    batches: Arc<DashMap<(String, String, &'static str, u64), String>>,
    rows: Arc<DashMap<RowKey, String>>,
    orders: crate::orders::OrderService,
}

impl OrderImports {
    pub async fn import(&self, caller: &crate::auth::Caller, body: Bytes) -> anyhow::Result<String> {
        let order: ImportedOrder = serde_json::from_slice(&body)?;
        let mut crc = crc64fast::Digest::new();
        crc.write(&body);
        let slot = (caller.tenant_id.clone(), caller.user_id.clone(), "orders.import", crc.sum64());
        if let Some(id) = self.batches.get(&slot) {
            return Ok(id.clone());
        }
        let channel = order.channel.clone().unwrap_or_default();
        let id = self.orders.import(&caller.tenant_id, &order.external_ref, &order.lines, &channel).await?;
        self.batches.insert(slot, id.clone());
        Ok(id)
    }

    pub async fn import_row(&self, caller: &crate::auth::Caller, Json(row): Json<ImportedOrder>) -> anyhow::Result<String> {
        let mut h = foldhash::quality::FixedState::with_seed(7).build_hasher();
        row.hash(&mut h);
        let key = RowKey { tenant_id: caller.tenant_id.clone(), user_id: caller.user_id.clone(), route: "orders.import_row", digest: h.finish() };
        if let Some(id) = self.rows.get(&key) {
            return Ok(id.clone());
        }
        let id = self.orders.import(&caller.tenant_id, &row.external_ref, &row.lines, "csv").await?;
        self.rows.insert(key, id.clone());
        Ok(id)
    }
}
