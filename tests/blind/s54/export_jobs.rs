use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use gatehouse::http::{Request, Response, StatusCode};
use gatehouse::AuthContext;
use idem_scope::{scoped, IdempotencyKey, Problem};
use ledgerkit::kv::Kv;
use serde::Deserialize;

#[derive(Deserialize)]
struct ExportSpec {
    dataset: String,
    format: String,
    max_rows: Option<u64>,
}

pub struct ExportHandler {
    kv: Arc<Kv>,
    warehouse: Arc<warehouse::Client>,
}

impl ExportHandler {
    pub async fn post(&self, mut req: Request) -> Response {
        let Some(auth) = req.extensions().get::<AuthContext>().cloned() else {
            return Response::problem(StatusCode::UNAUTHORIZED, "no identity");
        };
        let raw = match req.headers().get("idempotency-key") {
            Some(v) => v.as_bytes().to_vec(),
            None => return Response::from(Problem::missing_key()),
        };
        let key = match IdempotencyKey::parse_lenient(&raw) {
            Ok(k) => k,
            Err(e) => return Response::from(Problem::invalid_key(&e.to_string())),
        };
        req.extensions_mut().insert(key.clone());

        let sk = match scoped(&auth.org_id, &auth.actor, "exports.create", key.as_str()) {
            Ok(sk) => sk,
            Err(e) => return Response::from(Problem::invalid_key(&e.to_string())),
        };
        let spec: ExportSpec = match req.json().await {
            Ok(s) => s,
            Err(e) => return Response::problem(StatusCode::BAD_REQUEST, &e.to_string()),
        };

        let kv = self.kv.clone();
        let warehouse = self.warehouse.clone();
        let storage_key = sk.storage_key().to_owned();
        tokio::spawn(async move {
            let fresh = kv
                .set_nx(&storage_key, b"in_progress", Duration::from_secs(600))
                .await
                .context("claim export")?;
            if !fresh {
                return Ok(());
            }
            if spec.format != "csv" && spec.format != "parquet" {
                bail!("unsupported export format {}", spec.format);
            }
            let rows = spec.max_rows.unwrap_or(1_000_000);
            let url = warehouse.export(&spec.dataset, &spec.format, rows).await?;
            kv.set(&storage_key, url.as_bytes(), Duration::from_secs(86_400)).await?;
            anyhow::Ok(())
        });
        Response::accepted()
    }
}
