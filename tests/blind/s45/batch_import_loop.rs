use std::time::{Duration, Instant};

use idem_scope::scoped;

pub struct Row {
    pub tenant_id: String,
    pub user_id: String,
    /// Per-row idempotency key chosen by the client (mirrors the Idempotency-Key header of single-row calls).
    pub row_key: String,
    pub data: serde_json::Value,
}

pub struct BulkImporter {
    idem: RowIdem,
    sink: Warehouse,
}

impl BulkImporter {
    pub async fn import(&self, rows: Vec<Row>, budget: Duration) -> Result<usize, ImportError> {
        let started = Instant::now();
        let mut imported = 0;
        for row in rows {
            let key = scoped(&row.tenant_id, &row.user_id, "rows.import", &row.row_key)?;
            self.idem.begin(&key).await?;
            if started.elapsed() > budget {
                tracing::warn!(imported, "import budget exhausted");
                break;
            }
            let id = self.sink.write(&row.tenant_id, &row.data).await?;
            self.idem.commit(&key, &id).await?;
            imported += 1;
        }
        Ok(imported)
    }

    pub async fn import_guarded(&self, rows: Vec<Row>, budget: Duration) -> Result<usize, ImportError> {
        let started = Instant::now();
        let mut imported = 0;
        for row in rows {
            if started.elapsed() > budget {
                break;
            }
            let key = scoped(&row.tenant_id, &row.user_id, "rows.import", &row.row_key)?;
            let pending = self.idem.begin_pending(&key).await?;
            let id = self.sink.write(&row.tenant_id, &row.data).await?;
            pending.complete(&id).await?;
            imported += 1;
        }
        Ok(imported)
    }
}
