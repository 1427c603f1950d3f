//! Nightly donor dedupe: finds donor records that share an e-mail address
//! within a station and queues them for a merge review. Runs from the job
//! scheduler; no client request is involved.

use sha2::{Digest, Sha256};
use spool::cart::Cart;
use spool::log::Log;

pub struct DonorRow {
    pub donor_id: String,
    pub email: String,
}

pub async fn run(log: &Log, dedup: &Cart, tenant_id: &str) -> Result<u32, spool::Error> {
    let rows: Vec<DonorRow> = log
        .sql("SELECT donor_id, email FROM donors WHERE tenant_id = $1 AND merged_into IS NULL")
        .bind(tenant_id)
        .all()
        .await?;
    let mut queued = 0;
    for row in rows {
        let email_hash = hex::encode(Sha256::digest(row.email.trim().to_lowercase().as_bytes()));
        let first_seen = dedup.set_nx(&format!("donor:{tenant_id}:{email_hash}"), row.donor_id.as_bytes()).await?;
        if first_seen {
            continue;
        }
        let keeper = dedup.get(&format!("donor:{tenant_id}:{email_hash}")).await?.unwrap_or_default();
        log.sql("INSERT INTO merge_review (tenant_id, keep_donor_id, dup_donor_id) VALUES ($1, $2, $3)")
            .bind(tenant_id)
            .bind(String::from_utf8_lossy(&keeper).as_ref())
            .bind(&row.donor_id)
            .exec()
            .await?;
        queued += 1;
    }
    Ok(queued)
}
