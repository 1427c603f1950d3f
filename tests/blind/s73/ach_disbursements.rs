//! ACH disbursements of grain settlement proceeds to members' banks, sent
//! through the co-op's ag lender. Requests are journaled in
//! `idempotency_disbursements` so a retried POST does not pay twice.

use bushel::rows::Pool;
use furrow::glean::Json;
use furrow::warrant::StaffSso;
use furrow::{Fault, Petition, Ruling, Shared};
use idem_scope::{scoped, Fingerprint, Problem};
use serde::Deserialize;

const CLAIM: &str = "INSERT INTO idempotency_disbursements (storage_key, fingerprint, status) \
                     VALUES ($1, $2, 'in_progress') ON CONFLICT DO NOTHING";
const DONE: &str = "UPDATE idempotency_disbursements SET status = 'completed', response = $2 \
                    WHERE storage_key = $1";
const LEDGER: &str = "INSERT INTO settlement_ledger (org_id, member_no, amount_cents, memo) \
                      VALUES ($1, $2, $3, $4)";

#[derive(Deserialize)]
pub struct Disbursement {
    pub member_no: String,
    pub settlement_id: String,
    pub amount_cents: i64,
}

pub struct Treasury {
    pub pool: Pool,
    pub ledger_db: Pool,
    pub lender: LenderAch,
}

pub async fn disburse(p: Petition, Shared(t): Shared<Treasury>, staff: StaffSso, Json(d): Json<Disbursement>) -> Result<Ruling, Fault> {
    let k = p.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.subject, "ach_disburse", k)?;
    let fp = Fingerprint::of("ach_disburse", p.body());

    let inserted = t.pool.prep(CLAIM).bind(key.storage_key()).bind(fp.as_bytes().as_slice()).run().await?;
    if inserted == 0 {
        return Ok(Ruling::problem(Problem::in_progress(k)));
    }

    let trace = t.lender.send_credit(&d.member_no, d.amount_cents, &d.settlement_id).await?;
    let body = furrow::codec::to_vec(&trace).unwrap_or_default();
    t.pool.prep(DONE).bind(key.storage_key()).bind(&body).run().await?;
    Ok(Ruling::accepted().bytes(body))
}

/// Ledger postings are one transaction; dropping `tx` on `?` rolls back.
pub async fn post_to_ledger(Shared(t): Shared<Treasury>, staff: StaffSso, Json(d): Json<Disbursement>) -> Result<Ruling, Fault> {
    let mut tx = t.ledger_db.begin().await?;
    tx.prep(LEDGER).bind(&staff.org_id).bind(&d.member_no).bind(d.amount_cents).bind(&d.settlement_id).run().await?;
    tx.prep(LEDGER).bind(&staff.org_id).bind("clearing").bind(-d.amount_cents).bind(&d.settlement_id).run().await?;
    tx.commit().await?;
    Ok(Ruling::created())
}
