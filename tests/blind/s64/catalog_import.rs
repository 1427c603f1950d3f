use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct ImportRow {
    pub sku: String,
    pub title: String,
    pub tags: Vec<String>,
}

#[derive(Deserialize)]
pub struct ImportBatch {
    pub source_url: String,
    pub rows: Vec<ImportRow>,
}

pub struct Catalog {
    pub locker: Locker,
    pub products: crate::products::Products,
}

impl Catalog {
    pub async fn import(&self, caller: Caller, head: Head, Json(batch): Json<ImportBatch>) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(caller.tenant_id(), caller.user_id(), "catalog_import", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let base = batch.source_url.trim_end_matches('/');
        let mut imported = 0usize;
        for row in &batch.rows {
            let sku: String = row.sku.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
            let tags = row.tags.join("|").replace('|', ",");
            let link = format!("{}/{}", base, sku);
            if self.products.upsert(caller.tenant_id(), &sku, &row.title, &tags, &link).await.is_ok() {
                imported += 1;
            }
        }
        let body = serde_json::to_vec(&serde_json::json!({ "imported": imported })).unwrap_or_default();
        let _ = self.locker.put(sk.storage_key(), &body, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, body)
    }
}
