use std::sync::Arc;

use contrie::ConMap;
use gimbal::{Ctx, RawBody, Reply};
use http::HeaderMap;
use serde::Serialize;

use crate::catalog::{Catalog, ImportError};

const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

#[derive(Clone, Serialize)]
struct ImportSummary {
    rows: usize,
    rejected: usize,
    row_checksums: Vec<u64>,
}

pub struct Imports {
    seen: ConMap<(&'static str, String), Arc<ImportSummary>>,
    catalog: Catalog,
}

fn dedup_key(route: &'static str, key: &str) -> (&'static str, String) {
    (route, key.to_owned())
}

fn client_key(headers: &HeaderMap) -> Option<&str> {
    headers.get(IDEMPOTENCY_KEY)?.to_str().ok()
}

fn normalise_cell(raw: &str) -> String {
    raw.trim().replace(';', ",")
}

impl Imports {
    pub async fn import_csv(&self, ctx: Ctx, RawBody(body): RawBody) -> Result<Reply, ImportError> {
        let Some(k) = client_key(ctx.headers()) else {
            return Ok(Reply::status(400));
        };
        if let Some(done) = self.seen.get(&dedup_key("catalog.import", k)) {
            return Ok(Reply::replay_json(done.value().as_ref()));
        }

        let text = std::str::from_utf8(&body).map_err(|_| ImportError::NotUtf8)?;
        let mut summary = ImportSummary { rows: 0, rejected: 0, row_checksums: Vec::new() };
        for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let cells: Vec<String> = line.split(',').map(normalise_cell).collect();
            summary.row_checksums.push(crc64::crc64(0, cells.join(",").as_bytes()));
            match self.catalog.upsert(&ctx.auth().tenant_id, &cells).await {
                Ok(()) => summary.rows += 1,
                Err(_) => summary.rejected += 1,
            }
        }

        let summary = Arc::new(summary);
        self.seen.insert(dedup_key("catalog.import", k), Arc::clone(&summary));
        Ok(Reply::created_json(summary.as_ref()))
    }
}
