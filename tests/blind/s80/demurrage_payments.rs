//! Demurrage and storage invoice payments. Consignees and forwarders pay
//! outstanding container charges so that the release can be issued.

use std::fmt::Write as _;
use std::time::Duration;

use ballast::hold::{Claimed, Hold};
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::Problem;
use rust_pay::{Gateway, Money};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct PayRequest {
    pub invoice_no: String,
    pub amount_minor: i64,
    pub currency: String,
    pub card_token: String,
}

#[derive(Serialize)]
pub struct Receipt {
    pub invoice_no: String,
    pub receipt_no: String,
    pub release_unblocked: bool,
}

pub struct Cashier {
    pub replies: Hold,
    pub invoices: ballast::records::Records,
    pub gateway: Gateway,
}

pub async fn pay_invoice(
    cashier: Shared<Cashier>,
    payer: Agent,
    call: Call,
    Json(req): Json<PayRequest>,
) -> Result<Answer, Snag> {
    let key = call.header("Idempotency-Key").ok_or_else(|| Snag::problem(Problem::missing_key()))?;
    let route = call.route_template();

    let mut slot = String::with_capacity(128);
    write!(slot, "{}/{}/{}/", payer.account_id, payer.user_id, route).map_err(Snag::internal)?;
    write!(slot, "{}", key).map_err(Snag::internal)?;

    match cashier.replies.claim(&slot, Duration::from_secs(90)).await? {
        Claimed::Existing(prev) => return Ok(Answer::replay(prev)),
        Claimed::New => {}
    }

    let invoice_key = format!("inv:{}:{}", payer.account_id, req.invoice_no);
    let invoice = cashier.invoices.load(&invoice_key).await?;
    if invoice.outstanding_minor != req.amount_minor {
        return Err(Snag::unprocessable("amount does not match the outstanding balance"));
    }

    let charge = cashier
        .gateway
        .charge(&req.card_token, Money::from_minor(req.amount_minor, &req.currency), key)
        .await
        .map_err(|e| Snag::bad_gateway(e.to_string()))?;

    let receipt = Receipt { invoice_no: req.invoice_no.clone(), receipt_no: charge.id, release_unblocked: true };
    let answer = Answer::json(Status::OK, &receipt);
    cashier.replies.complete(&slot, &answer.to_bytes()).await?;
    Ok(answer)
}
