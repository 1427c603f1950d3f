//! Partner API for third-party sponsors (employers, embassies, scholarship
//! foundations) that pay student balances directly. Sponsors authenticate
//! with an API key; larger sponsors have sub-accounts per programme office.

use idem_scope::scoped;
use lectern::card::Partner;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::bursar::SponsorBilling;

#[derive(Deserialize)]
pub struct SponsorPayment {
    pub student_ref: String,
    pub amount_cents: i64,
    pub invoice: Option<String>,
}

pub struct SponsorApi {
    pub pouch: Pouch,
    pub billing: SponsorBilling,
}

pub async fn pay_balance(ask: &Ask, api: &SponsorApi) -> Result<Tell, Hitch> {
    let partner = ask.badge::<Partner>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let account_id = if let Some(sub) = partner.sub_account.as_ref() {
        sub.account_id.clone()
    } else {
        String::from("shared")
    };

    let sk = scoped(&account_id, &partner.api_key_id, "/v1/sponsors/payments", key)?;
    if let Some(done) = api.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: SponsorPayment = ask.json()?;
    let invoice = if let Some(inv) = input.invoice.as_deref() { inv } else { "" };
    let paid = api.billing.apply(&account_id, &input.student_ref, input.amount_cents, invoice).await?;
    let body = serde_json::to_vec(&paid)?;
    api.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn statement(ask: &Ask, api: &SponsorApi) -> Result<Tell, Hitch> {
    let partner = ask.badge::<Partner>()?;
    let account_id = match partner.sub_account.as_ref() {
        Some(sub) => sub.account_id.as_str(),
        None => partner.org_id.as_str(),
    };
    let stmt = api.billing.statement(account_id).await?;
    Ok(Tell::json(Mark::OK, &stmt))
}
