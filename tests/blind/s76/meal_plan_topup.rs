//! Dining-dollar top-ups. Keys are length-prefixed binary frames so that no
//! separator character can be confused with component text.

use integer_encoding::VarIntWriter;
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::dining::DiningLedger;

#[derive(Deserialize)]
pub struct TopUp {
    pub plan_id: String,
    pub amount_cents: u32,
}

pub struct Dining {
    pub pouch: Pouch,
    pub ledger: DiningLedger,
}

pub async fn top_up(ask: &Ask, st: &Dining) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = match ask.head("Idempotency-Key") {
        Some(k) if !k.is_empty() => k.to_owned(),
        _ => return Ok(Tell::status(Mark::BAD_REQUEST).text("missing Idempotency-Key")),
    };
    let route = "/v1/dining/top-ups";

    let mut frame: Vec<u8> = Vec::with_capacity(96);
    for part in [card.tenant_id.as_bytes(), card.user_id.as_bytes(), route.as_bytes()] {
        frame.write_varint(part.len() as u64)?;
        frame.extend_from_slice(part);
    }
    frame.write_varint(key.len() as u64)?;
    frame.extend_from_slice(key.as_bytes());

    if let Some(prev) = st.pouch.get(&frame).await? {
        return Ok(Tell::bytes(Mark::OK, prev));
    }

    let input: TopUp = ask.json()?;
    let posted = st.ledger.credit(&card.tenant_id, &card.user_id, &input.plan_id, input.amount_cents).await?;

    let mut receipt: Vec<u8> = Vec::new();
    receipt.extend_from_slice(b"plan=");
    receipt.extend_from_slice(input.plan_id.as_bytes());
    receipt.extend_from_slice(b";posting=");
    receipt.extend_from_slice(posted.id.as_bytes());

    st.pouch.put(&frame, &receipt).await?;
    Ok(Tell::bytes(Mark::CREATED, receipt))
}
