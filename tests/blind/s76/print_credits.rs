//! Print-credit purchases from the campus print portal, plus the PDF proof that
//! is archived for every purchase.

use std::iter;

use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::locker::Locker;
use satchel::pouch::Pouch;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct CreditsIn {
    pub pages: u32,
    pub queue_name: String,
}

pub struct PrintPortal {
    pub pouch: Pouch,
    pub proofs: Locker,
}

pub async fn buy_credits(ask: &Ask, portal: &PrintPortal) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("X-Idempotency-Key").ok_or(Hitch::bad_request("X-Idempotency-Key"))?;
    let operation = "print.credits.buy";

    let parts: Vec<&str> = iter::once(card.tenant_id.as_str())
        .chain(iter::once(card.user_id.as_str()))
        .chain([operation, key])
        .collect();
    let slot = parts.join("\u{0}");

    if let Some(done) = portal.pouch.get(&slot).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }

    let input: CreditsIn = ask.json()?;
    let queue = input.queue_name.trim_end_matches('/');
    let proof = crate::print::render_proof(&card.user_id, input.pages, queue)?;
    let proof_path = [card.tenant_id.as_str(), "proofs", card.user_id.as_str(), "latest.pdf"].join("/");
    portal.proofs.put(&proof_path, &proof).await?;

    let body = serde_json::to_vec(&serde_json::json!({ "pages": input.pages, "queue": queue }))?;
    portal.pouch.put(&slot, &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
