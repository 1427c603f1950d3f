use crate::idem::HeedRecords;
use idem_scope::{scoped, Fingerprint};
use jsonrpsee::core::{async_trait, RpcResult};
use jsonrpsee::proc_macros::rpc;
use jsonrpsee::types::ErrorObjectOwned;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct ImportItem {
    /// Per-item idempotency key chosen by the client (same semantics as the Idempotency-Key header).
    pub idempotency_key: String,
    pub sku: String,
    pub qty: i64,
}

#[derive(Deserialize)]
pub struct ImportBatch {
    pub tenant_id: String,
    pub user_id: String,
    pub items: Vec<ImportItem>,
}

#[rpc(server)]
pub trait Inventory {
    #[method(name = "inventory_import")]
    async fn import(&self, batch: ImportBatch) -> RpcResult<usize>;
}

pub struct InventoryImpl {
    records: Arc<HeedRecords>,
    stock: Arc<heed::Env>,
}

fn rpc_err(m: &str) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32602, m.to_owned(), None::<()>)
}

#[async_trait]
impl InventoryServer for InventoryImpl {
    async fn import(&self, batch: ImportBatch) -> RpcResult<usize> {
        let mut applied = 0usize;
        for item in &batch.items {
            let key = scoped(&batch.tenant_id, &batch.user_id, "inventory.import", &item.idempotency_key)
                .map_err(|e| rpc_err(&e.to_string()))?;
            let fp = Fingerprint::of("inventory.import", item.sku.as_bytes());
            if !self.records.reserve(&key, &fp).map_err(|e| rpc_err(&e.to_string()))? {
                continue;
            }
            if item.qty == 0 {
                break;
            }
            let wtxn = self.stock.write_txn().map_err(|e| rpc_err(&e.to_string()))?;
            wtxn.commit().map_err(|e| rpc_err(&e.to_string()))?;
            self.records.commit(&key, b"ok").map_err(|e| rpc_err(&e.to_string()))?;
            applied += 1;
        }
        Ok(applied)
    }
}
