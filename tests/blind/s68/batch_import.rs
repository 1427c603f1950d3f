use cobble::vault::Vault;
use idem_scope::scoped;
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Reply, Status};

#[derive(serde::Deserialize)]
pub struct ImportLine {
    #[serde(rename = "Idempotency-Key")]
    pub key: String,
    pub sku: String,
    pub qty: i64,
}

#[derive(serde::Serialize, Default)]
pub struct ImportReport {
    pub applied: usize,
    pub skipped: usize,
    pub failed: Vec<String>,
}

pub async fn import_stock(caller: Caller, Json(lines): Json<Vec<ImportLine>>, vault: &Vault, stock: &crate::stock::Stock) -> Reply {
    let mut report = ImportReport::default();
    for line in lines {
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "stock.import", &line.key) else {
            report.failed.push(line.key.clone());
            continue;
        };
        match vault.claim(sk.storage_key(), std::time::Duration::from_secs(60)).await {
            Ok(true) => {}
            Ok(false) => {
                report.skipped += 1;
                continue;
            }
            Err(_) => {
                report.failed.push(line.key.clone());
                continue;
            }
        }
        let Some(item) = stock.find(&caller.tenant_id, &line.sku).await else {
            report.failed.push(line.key.clone());
            continue;
        };
        stock.adjust(&item, line.qty).await;
        vault.complete(sk.storage_key(), b"applied").await.ok();
        report.applied += 1;
    }
    Reply::json(Status::Ok, &report)
}
