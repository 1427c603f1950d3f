use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use ferrum::kv::ShardedKv;
use relay::http::{HeaderMap, StatusCode};
use wyhash::WyHash;

const SEED: u64 = 0x5eed_1e55;

pub struct ImportCtx<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
}

pub struct BulkImporter {
    kv: ShardedKv,
    catalog: catalog::Client,
}

type SkuCounts = HashMap<String, u32, BuildHasherDefault<WyHash>>;

fn count_skus(csv: &str) -> SkuCounts {
    let mut counts = SkuCounts::default();
    for line in csv.lines().skip(1) {
        if let Some(sku) = line.split(',').next() {
            *counts.entry(sku.trim().to_owned()).or_insert(0) += 1;
        }
    }
    counts
}

impl BulkImporter {
    pub async fn import(&self, ctx: ImportCtx<'_>) -> Result<(StatusCode, String), catalog::Error> {
        let shard = ctx
            .headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(|k| wyhash::wyhash(k.as_bytes(), 0) % 16)
            .unwrap_or(0);

        let route = "catalog.bulk_import";
        let batch_key = format!("{}/{}/{}/{:x}", ctx.tenant_id, ctx.user_id, route, wyhash::wyhash(ctx.body, SEED));
        if let Some(done) = self.kv.shard(shard).get(&batch_key).await? {
            return Ok((StatusCode::OK, done));
        }

        let csv = String::from_utf8_lossy(ctx.body);
        let counts = count_skus(&csv);
        let summary = self.catalog.upsert_counts(ctx.tenant_id, &counts).await?;
        self.kv.shard(shard).set(&batch_key, &summary).await?;
        Ok((StatusCode::CREATED, summary))
    }
}
