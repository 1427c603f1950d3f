//! Alumni pledges made from the giving portal. The retry token is read by a
//! small extractor so handlers do not each parse the header.

use lectern::card::Student;
use lectern::pluck::Pluck;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::cubby::{Begun, Cubby};
use serde::Deserialize;

use crate::advancement::Pledges;

/// The client's retry token (`Idempotency-Key`), required on pledge routes.
pub struct PledgeToken(pub String);

impl Pluck for PledgeToken {
    async fn pluck(ask: &Ask) -> Result<Self, Hitch> {
        match ask.head("Idempotency-Key") {
            Some(v) if !v.trim().is_empty() && v.len() <= 255 => Ok(PledgeToken(v.to_owned())),
            Some(_) => Err(Hitch::bad_request("malformed Idempotency-Key")),
            None => Err(Hitch::bad_request("Idempotency-Key is required")),
        }
    }
}

#[derive(Deserialize)]
pub struct PledgeIn {
    pub fund_code: String,
    pub amount_cents: i64,
    pub installments: u8,
}

pub async fn pledge(ask: &Ask, card: Student, token: PledgeToken, cubby: &Cubby, pledges: &Pledges) -> Result<Tell, Hitch> {
    match cubby.begin(&card.tenant_id, &card.user_id, &token.0).await? {
        Begun::Replay(body) => Ok(Tell::bytes(Mark::OK, body)),
        Begun::Fresh(held) => {
            let input: PledgeIn = ask.json()?;
            let made = pledges.record(&card.tenant_id, &card.user_id, &input.fund_code, input.amount_cents, input.installments).await?;
            let body = serde_json::to_vec(&made)?;
            held.complete(&body).await?;
            Ok(Tell::bytes(Mark::CREATED, body))
        }
    }
}

/// Pledge schedule lookups are cached per donor and fund; no client key here.
pub async fn schedule(ask: &Ask, card: Student, cubby: &Cubby, pledges: &Pledges) -> Result<Tell, Hitch> {
    let fund = ask.param("fund").ok_or(Hitch::bad_request("fund"))?;
    if let Some(cached) = cubby.get(&card.tenant_id, &card.user_id, fund).await? {
        return Ok(Tell::bytes(Mark::OK, cached));
    }
    let sched = pledges.schedule(&card.tenant_id, &card.user_id, fund).await?;
    let body = serde_json::to_vec(&sched)?;
    cubby.put(&card.tenant_id, &card.user_id, fund, &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
