//! Study-abroad programme deposits and the matching withdrawal requests.
//! Reply slots are serialised structs so that component boundaries survive.

use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::{Deserialize, Serialize};

use crate::global_ed::Programmes;

#[derive(Serialize)]
struct ReplySlot<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    idem_key: &'a str,
}

#[derive(Serialize)]
struct DepositSlot<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    idem_key: &'a str,
}

#[derive(Deserialize)]
pub struct DepositIn {
    pub programme_id: String,
    pub amount_cents: i64,
}

pub struct GlobalEd {
    pub pouch: Pouch,
    pub programmes: Programmes,
}

pub async fn pay_deposit(ask: &Ask, st: &GlobalEd) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let idem_key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let slot = serde_json::to_vec(&DepositSlot {
        tenant_id: &card.tenant_id,
        user_id: &card.user_id,
        idem_key,
    })?;
    if let Some(done) = st.pouch.get(&slot).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: DepositIn = ask.json()?;
    let paid = st.programmes.deposit(&card.tenant_id, &card.user_id, &input.programme_id, input.amount_cents).await?;
    let body = serde_json::to_vec(&paid)?;
    st.pouch.put(&slot, &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn withdraw(ask: &Ask, st: &GlobalEd) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let idem_key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let slot = serde_json::to_vec(&ReplySlot {
        tenant_id: &card.tenant_id,
        user_id: &card.user_id,
        route: "/v1/global-ed/withdrawals",
        idem_key,
    })?;
    if let Some(done) = st.pouch.get(&slot).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let programme = ask.param("programme").ok_or(Hitch::bad_request("programme"))?;
    let refund = st.programmes.withdraw(&card.tenant_id, &card.user_id, programme).await?;
    let body = serde_json::to_vec(&refund)?;
    st.pouch.put(&slot, &body).await?;
    Ok(Tell::bytes(Mark::ACCEPTED, body))
}
