//! Section swaps (drop one section and add another atomically) and the
//! nightly waitlist promotion job that fills seats freed by swaps.

use std::time::Duration;

use idem_scope::scoped;
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::lease::Leases;
use satchel::tally::Tally;
use serde::Deserialize;

use crate::sis::{Sections, Waitlists};

#[derive(Deserialize)]
pub struct SwapIn {
    pub drop_section: String,
    pub add_section: String,
}

pub struct Registrar {
    pub tally: Tally,
    pub leases: Leases,
    pub sis: Sections,
    pub waitlists: Waitlists,
}

pub async fn swap(ask: &Ask, reg: &Registrar) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/registration/swaps", key)?;
    let input: SwapIn = ask.json()?;

    let reply = 'swap: {
        reg.tally.mark_in_progress(sk.storage_key()).await?;
        let seats = match reg.sis.open_seats(&card.tenant_id, &input.add_section).await {
            Ok(n) => n,
            Err(e) => {
                reg.tally.abandon(sk.storage_key()).await?;
                return Err(Hitch::upstream(e));
            }
        };
        if seats == 0 {
            break 'swap Tell::status(Mark::CONFLICT).text("no seats left in the new section");
        }
        let swapped = reg.sis.swap(&card.tenant_id, &card.user_id, &input.drop_section, &input.add_section).await;
        let body = swapped.to_bytes();
        reg.tally.mark_done(sk.storage_key(), &body).await?;
        Tell::bytes(Mark::OK, body)
    };
    Ok(reply)
}

/// Runs every night at 02:00; only one replica may promote at a time.
pub async fn promote_waitlists(reg: &Registrar, tenant_id: &str) -> anyhow::Result<usize> {
    let lease = reg.leases.acquire(&format!("waitlist-promotion/{tenant_id}"), Duration::from_secs(900)).await?;
    let sections = reg.waitlists.sections_with_waitlist(tenant_id).await?;
    let mut promoted = 0;
    for section in sections {
        promoted += reg.waitlists.promote(tenant_id, &section).await?;
        lease.renew().await?;
    }
    lease.release().await?;
    Ok(promoted)
}
