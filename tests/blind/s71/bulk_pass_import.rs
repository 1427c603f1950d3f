//! Bulk pass import: universities upload a CSV of enrolled students at the
//! start of each term. Uploads are deduplicated in `pass_import_dedup`.

use hopper::rel::Rel;
use hopper::shelf::Shelf;
use idem_scope::Fingerprint;
use wharf::badge::Operator;
use wharf::{Answer, Code, Fault, Hail};

const ROUTE: &str = "passes.import";

pub struct PassImports {
    rel: Rel,
    shelf: Shelf,
}

impl PassImports {
    pub async fn import(&self, hail: Hail, op: Operator) -> Result<Answer, Fault> {
        let csv_bytes = hail.body();
        if csv_bytes.len() > 8 * 1024 * 1024 {
            return Ok(Answer::status(Code::PayloadTooLarge));
        }
        let digest = crypto2::hash::Sha256::oneshot(csv_bytes);
        let upload_ref = base45::encode(digest);
        let fingerprint = Fingerprint::of(ROUTE, csv_bytes);

        let inserted = self
            .rel
            .stmt(
                "INSERT INTO pass_import_dedup (tenant_id, actor, route, upload_key, fingerprint, created_at) \
                 VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT DO NOTHING",
            )
            .bind(&op.org_id)
            .bind(&op.actor)
            .bind(ROUTE)
            .bind(&upload_ref)
            .bind(fingerprint.as_bytes())
            .exec()
            .await?;
        if inserted == 0 {
            return Ok(Answer::text(Code::Ok, "this file was already imported"));
        }

        let mut reader = csv_core::Reader::new();
        let rows = crate::imports::parse_students(&mut reader, csv_bytes)?;
        let batch_id = crate::imports::queue(&op.org_id, rows).await?;
        self.shelf.put(&op.org_id, &format!("imports/{batch_id}.csv"), csv_bytes.to_vec()).await?;
        Ok(Answer::json(Code::Accepted, &wharf::json!({ "batch": batch_id })))
    }
}
