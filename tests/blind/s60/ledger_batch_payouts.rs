use anyhow::Result;
use gimbal::{Ctx, Json, Reply};
use idem_scope::scoped;
use pyxis::ledger::Ledger;
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use crate::bank::Bank;

pub const LEDGER_DDL: &str = "
CREATE TABLE IF NOT EXISTS payout_line_idempotency (
    scope_version  TEXT    NOT NULL,
    tenant_id      TEXT    NOT NULL,
    principal_id   TEXT    NOT NULL,
    route          TEXT    NOT NULL,
    ns             TEXT    NOT NULL,
    idem_key       TEXT    NOT NULL,
    state          TEXT    NOT NULL CHECK (state IN ('acquired', 'committed')),
    receipt        BYTEA,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)";

#[derive(Deserialize)]
pub struct PayoutLine {
    pub reference: String,
    pub iban: String,
    pub amount_minor: i64,
}

#[derive(Deserialize)]
pub struct PayoutBatch {
    pub lines: Vec<PayoutLine>,
}

#[derive(Default, Serialize)]
pub struct BatchResult {
    paid: Vec<String>,
    rejected: Vec<String>,
    skipped: Vec<String>,
}

pub struct Payouts {
    ledger: Ledger,
    bank: Bank,
    bank_slots: Semaphore,
}

impl Payouts {
    pub async fn submit(&self, ctx: Ctx, Json(batch): Json<PayoutBatch>) -> Result<Reply> {
        let auth = ctx.auth();
        let mut result = BatchResult::default();

        for line in &batch.lines {
            let key = scoped(&auth.tenant_id, &auth.user_id, "payouts.line", &line.reference)?;
            if !self.ledger.try_acquire(&key).await? {
                result.skipped.push(line.reference.clone());
                continue;
            }
            if line.amount_minor <= 0 || line.iban.len() < 15 {
                result.rejected.push(line.reference.clone());
                continue;
            }

            let permit = self.bank_slots.acquire().await?;
            let sent = self.bank.pay(&auth.tenant_id, &line.iban, line.amount_minor).await;
            drop(permit);

            match sent {
                Ok(receipt) => {
                    self.ledger.commit(&key, receipt.as_bytes()).await?;
                    result.paid.push(line.reference.clone());
                }
                Err(_) => {
                    self.ledger.abort(&key).await?;
                    result.rejected.push(line.reference.clone());
                }
            }
        }
        Ok(Reply::ok_json(&result))
    }
}
