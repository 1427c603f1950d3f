//! Underwriter invoices: sponsors pay their underwriting invoices online.

use crosspoint::badge::Underwriter;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{scoped, Component, ScopeError};
use serde::Deserialize;
use spool::cart::Cart;

#[derive(Deserialize)]
pub struct InvoicePayment {
    pub invoice_no: String,
    pub ach_token: String,
}

pub async fn pay_invoice(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let uw = inb.badge::<Underwriter>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;
    if k.contains('|') {
        return Err(Glitch::scope(ScopeError::ContainsSeparator(Component::Key)));
    }
    let account_id: String = uw.account_id.chars().filter(|c| *c != '|').collect();

    let key = scoped(&account_id, &uw.api_key_id, "/v1/invoices/pay", k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let p: InvoicePayment = inb.json().await?;
    let paid = crate::receivables::pay(&uw.account_id, &p.invoice_no, &p.ach_token).await.map_err(Glitch::upstream)?;
    cart.put(key.storage_key(), &serde_json::to_vec(&paid).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &paid))
}
