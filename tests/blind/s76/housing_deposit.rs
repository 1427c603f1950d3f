//! Housing deposits for the next academic year. The key a reply is cached
//! under is grown in place from the campus id to save an allocation per
//! request (the hot path during the housing lottery).

use std::borrow::Cow;

use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use idem_scope::Problem;
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::bursar::Bursar;

#[derive(Deserialize)]
pub struct DepositIn {
    pub residence_hall: String,
    pub amount_cents: i64,
    pub note: Option<String>,
}

pub struct Housing {
    pub pouch: Pouch,
    pub bursar: Bursar,
}

pub async fn deposit(ask: &Ask, st: &Housing) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask
        .head("idempotency-key")
        .ok_or_else(|| Hitch::problem(Problem::missing_key()))?;
    let route = "/v1/housing/deposits";

    let mut slot: Cow<'_, str> = Cow::Borrowed(card.tenant_id.as_str());
    slot.to_mut().push('\u{1f}');
    slot.to_mut().push_str(&card.user_id);
    slot.to_mut().push('\u{1f}');
    slot.to_mut().push_str(route);
    slot.to_mut().push('\u{1f}');
    slot.to_mut().push_str(key);

    if let Some(done) = st.pouch.get(&slot).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }

    let input: DepositIn = ask.json()?;
    let note = input.note.clone().unwrap_or_default();
    let mut memo = String::from("housing deposit ");
    memo.push_str(&input.residence_hall);
    memo.push_str(" / retry token ");
    memo.push_str(key);
    let receipt = st
        .bursar
        .post_charge(&card.tenant_id, &card.user_id, input.amount_cents, &memo, &note)
        .await?;

    let body = serde_json::to_vec(&receipt)?;
    st.pouch.put(&slot, &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
