//! Subscription changes. Records live in `idempotency_records` via welds.
use http::HeaderMap;
use welds::connections::postgres::PostgresClient;

#[derive(Debug, welds::WeldsModel)]
#[welds(table = "idempotency_records")]
pub struct IdemRow {
    #[welds(primary_key)]
    pub id: i64,
    pub storage_key: String,
    pub status: String,
    pub response: Option<String>,
}

pub struct Tenant {
    pub tenant_id: String,
    pub principal_id: String,
}

pub struct IdemTable<'a> {
    pub db: &'a PostgresClient,
}

impl IdemTable<'_> {
    pub async fn mark_in_progress(&self, key: &str) -> anyhow::Result<()> {
        let mut row = IdemRow::new();
        row.storage_key = key.to_owned();
        row.status = "in_progress".into();
        row.save(self.db).await?;
        Ok(())
    }

    pub async fn mark_completed(&self, key: &str, response: &str) -> anyhow::Result<()> {
        let mut rows = IdemRow::where_col(|r| r.storage_key.equal(key)).run(self.db).await?;
        if let Some(row) = rows.first_mut() {
            row.status = "completed".into();
            row.response = Some(response.to_owned());
            row.save(self.db).await?;
        }
        Ok(())
    }
}

pub async fn change_plan(t: &Tenant, table: &IdemTable<'_>, headers: &HeaderMap, plan: &str) -> anyhow::Result<String> {
    let client_key = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("400"))?;
    let key = idem_scope::scoped(&t.tenant_id, &t.principal_id, "subscriptions.change_plan", client_key)?;
    table.mark_in_progress(key.storage_key()).await?;
    anyhow::ensure!(plan != "legacy", "422 legacy plans cannot be selected");
    let sub = apply_plan(plan).await?;
    table.mark_completed(key.storage_key(), &sub).await?;
    Ok(sub)
}

pub async fn preview_plan(t: &Tenant, plan: &str) -> anyhow::Result<String> {
    let preview_key = format!("preview/{}/{}", t.tenant_id, plan);
    tracing::info!(%preview_key, "plan preview");
    Ok(preview_key)
}

async fn apply_plan(plan: &str) -> anyhow::Result<String> {
    Ok(format!("sub_{plan}"))
}
