//! Student-loan disbursement notices from the loan servicer's SFTP-to-HTTP
//! relay, and the student-facing "apply my loan refund to next term" request.
//! Old relay versions send notices without a notice id.

use idem_scope::{scoped, scoped_server};
use lectern::card::{ServiceAccount, Student};
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;
use uuid::Uuid;

use crate::aid::LoanLedger;

#[derive(Deserialize)]
pub struct Notice {
    pub notice_id: Option<String>,
    pub tenant_id: String,
    pub borrower_id: String,
    pub amount_cents: i64,
}

pub struct Loans {
    pub pouch: Pouch,
    pub ledger: LoanLedger,
}

pub async fn disbursement_notice(ask: &Ask, loans: &Loans) -> Result<Tell, Hitch> {
    let svc = ask.badge::<ServiceAccount>()?;
    let notice: Notice = ask.json()?;
    let mint = || Uuid::new_v4().to_string();

    let sk = match notice.notice_id.as_deref() {
        Some(id) => scoped_server(&notice.tenant_id, &svc.client_id, "/hooks/loans/disbursements", id)?,
        None => scoped(&notice.tenant_id, &svc.client_id, "/hooks/loans/disbursements", &mint())?,
    };
    if let Some(done) = loans.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let disbursement_id = Uuid::new_v4();
    loans.ledger.record(&notice.tenant_id, &notice.borrower_id, notice.amount_cents, disbursement_id).await?;
    let body = serde_json::to_vec(&serde_json::json!({ "disbursement_id": disbursement_id }))?;
    loans.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn apply_refund_forward(ask: &Ask, loans: &Loans) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/loans/refund-forward", key)?;
    if let Some(done) = loans.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let moved = loans.ledger.forward_refund(&card.tenant_id, &card.user_id).await?;
    let body = serde_json::to_vec(&moved)?;
    loans.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
