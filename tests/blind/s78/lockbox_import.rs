//! Lockbox file import: partner banks upload CSV batches of mailed-in payments.
//! The whole upload carries an Idempotency-Key; each row is also deduplicated.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Partner;
use penstock::{Code, Fault, Intake, Outflow};

pub async fn import_batch(intake: Intake, bank: Partner, dedup: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let batch_key = scoped(&bank.org_id, &bank.api_key_id, "lockbox-import", key)?;
    if let Some(prev) = dedup.get(batch_key.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let raw = intake.body();
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(&raw[..]);
    let mut posted = 0u32;
    for row in reader.records() {
        let row = row?;
        let line = row.iter().collect::<Vec<_>>().join(",");
        let route = "lockbox-row";
        let row_slot = format!("{}:{}:{}:{:08x}", bank.org_id, bank.api_key_id, route, crc32c::crc32c(line.as_bytes()));
        if dedup.exists(&row_slot).await? {
            continue;
        }
        let payer_ref = row.get(2).unwrap_or_default().trim_matches('"');
        crate::billing::payments()
            .post_lockbox(&bank.org_id, payer_ref, row.get(3).unwrap_or("0"))
            .await?;
        dedup.put(&row_slot, b"posted").await?;
        posted += 1;
    }
    let out = Outflow::json(Code::OK, &serde_json::json!({ "posted": posted }));
    dedup.put(batch_key.storage_key(), &out).await?;
    Ok(out)
}
