//! Meal-swipe transfers ("swipe out hunger"): a student donates unused swipes
//! to the campus pantry pool or to a friend on the same plan.

use std::time::Duration;

use idem_scope::scoped;
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::dining::SwipeBank;

#[derive(Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Recipient {
    Pantry,
    Friend { user_id: String },
    Guest { name: String },
}

#[derive(Deserialize)]
pub struct TransferIn {
    pub swipes: u16,
    pub recipient: Recipient,
}

pub struct Swipes {
    pub pouch: Pouch,
    pub bank: SwipeBank,
}

pub async fn transfer(ask: &Ask, sw: &Swipes) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/dining/swipe-transfers", key)?;
    let input: TransferIn = ask.json()?;

    if !sw.pouch.claim(sk.storage_key(), Duration::from_secs(45)).await? {
        return Ok(Tell::problem(idem_scope::Problem::in_progress(key)));
    }
    let moved = match &input.recipient {
        Recipient::Pantry => sw.bank.donate(&card.tenant_id, &card.user_id, input.swipes).await,
        Recipient::Friend { user_id } => sw.bank.gift(&card.tenant_id, &card.user_id, user_id, input.swipes).await,
        Recipient::Guest { .. } => todo!("guest meal passes are issued by the card office"),
    };
    let body = match moved {
        Ok(m) => m.to_bytes(),
        Err(e) => {
            sw.pouch.release(sk.storage_key()).await?;
            return Err(Hitch::upstream(e));
        }
    };
    sw.pouch.complete(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

/// Balance top-ups from the pantry pool use the guarded claim.
pub async fn pantry_draw(ask: &Ask, sw: &Swipes) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/dining/pantry-draws", key)?;
    let Some(held) = sw.pouch.begin(sk.storage_key()).await? else {
        return Ok(Tell::problem(idem_scope::Problem::in_progress(key)));
    };
    let drawn = sw.bank.draw_from_pantry(&card.tenant_id, &card.user_id).await?;
    let body = drawn.to_bytes();
    held.complete(&body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
