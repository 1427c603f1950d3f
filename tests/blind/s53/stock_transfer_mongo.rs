use chrono::Utc;
use mongodb::bson::{doc, Document};
use mongodb::options::UpdateOptions;
use mongodb::Collection;

use crate::inventory::{StockMove, StockService};

pub struct TransferRecords {
    coll: Collection<Document>,
}

impl TransferRecords {
    pub async fn mark_in_progress(&self, tenant_id: &str, user_id: &str, idem_key: &str) -> mongodb::error::Result<bool> {
        let filter = doc! { "tenant_id": tenant_id, "user_id": user_id, "route": "stock.transfer", "key": idem_key };
        let update = doc! { "$setOnInsert": { "status": "in_progress", "created_at": Utc::now().timestamp() } };
        let res = self.coll.update_one(filter, update).with_options(UpdateOptions::builder().upsert(true).build()).await?;
        Ok(res.upserted_id.is_some())
    }

    pub async fn mark_completed(&self, tenant_id: &str, user_id: &str, idem_key: &str, response: Document) -> mongodb::error::Result<()> {
        let filter = doc! { "tenant_id": tenant_id, "user_id": user_id, "route": "stock.transfer", "key": idem_key };
        self.coll.update_one(filter, doc! { "$set": { "status": "completed", "response": response } }).await?;
        Ok(())
    }

    pub async fn abandon(&self, tenant_id: &str, user_id: &str, idem_key: &str) -> mongodb::error::Result<()> {
        let filter = doc! { "tenant_id": tenant_id, "user_id": user_id, "route": "stock.transfer", "key": idem_key, "status": "in_progress" };
        self.coll.delete_one(filter).await?;
        Ok(())
    }
}

pub async fn transfer_stock(
    records: &TransferRecords,
    stock: &StockService,
    tenant_id: &str,
    user_id: &str,
    idem_key: &str,
    mv: StockMove,
) -> anyhow::Result<Document> {
    if !records.mark_in_progress(tenant_id, user_id, idem_key).await? {
        anyhow::bail!("transfer {idem_key} is already being processed");
    }
    let from = stock.reserve_bin(tenant_id, &mv.from_bin, mv.qty).await?;
    let to = stock.receive_bin(tenant_id, &mv.to_bin, mv.qty).await?;
    let response = doc! { "from": from.bin_id, "to": to.bin_id, "qty": mv.qty as i64 };
    records.mark_completed(tenant_id, user_id, idem_key, response.clone()).await?;
    Ok(response)
}
