use azure_data_tables::prelude::*;
use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::Head;
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
pub struct ReplayEntity {
    #[serde(rename = "PartitionKey")]
    pub partition: String,
    #[serde(rename = "RowKey")]
    pub row: String,
    pub body: String,
}

pub struct ReplayTable {
    table: TableClient,
}

impl ReplayTable {
    pub async fn get(&self, slot: &(String, String)) -> azure_core::Result<Option<ReplayEntity>> {
        let (partition, row) = (slot.0.as_str(), slot.1.as_str());
        let resp = self.table.partition_key_client(partition).entity_client(row).get::<ReplayEntity>().await;
        match resp {
            Ok(r) => Ok(Some(r.entity)),
            Err(e) if e.as_http_error().map(|h| h.status() == 404).unwrap_or(false) => Ok(None),
            Err(e) => Err(e),
        }
    }

    pub async fn put(&self, slot: &(String, String), body: String) -> azure_core::Result<()> {
        let (partition, row) = (slot.0.as_str(), slot.1.as_str());
        let entity = ReplayEntity { partition: partition.to_owned(), row: row.to_owned(), body };
        self.table.partition_key_client(partition).entity_client(row).insert_or_replace(&entity)?.await?;
        Ok(())
    }
}

pub async fn replay_or_run(replays: &ReplayTable, caller: &Caller, head: &Head, run: impl std::future::Future<Output = String>) -> Reply {
    let Some(key) = head.header("Idempotency-Key").map(str::to_owned) else {
        return Reply::problem(Problem::missing_key());
    };
    let slot = (caller.tenant_id().to_owned(), key);
    if let Ok(Some(hit)) = replays.get(&slot).await {
        return Reply::text(Status::OK, hit.body);
    }
    let body = run.await;
    let _ = replays.put(&slot, body.clone()).await;
    Reply::text(Status::OK, body)
}

pub async fn replay_or_run_scoped(replays: &ReplayTable, caller: &Caller, head: &Head, run: impl std::future::Future<Output = String>) -> Reply {
    let Some(key) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), head.path(), key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let slot = (caller.tenant_id().to_owned(), sk.storage_key().to_owned());
    if let Ok(Some(hit)) = replays.get(&slot).await {
        return Reply::text(Status::OK, hit.body);
    }
    let body = run.await;
    let _ = replays.put(&slot, body.clone()).await;
    Reply::text(Status::OK, body)
}
