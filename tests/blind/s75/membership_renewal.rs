//! Friends-of-the-theatre memberships: yearly renewal with an optional upgrade.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use loft::promptbook::PromptBook;
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const KEEP: Duration = Duration::from_secs(7 * 86_400);
const LEASE: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
pub struct Renewal {
    pub level: String,
    pub gift_aid: bool,
}

pub struct Membership {
    pub book: PromptBook,
    pub batten: Batten,
    pub crm: crate::crm::Members,
}

pub async fn renew(cue: Cue, patron: Patron, JsonPart(req): JsonPart<Renewal>, house: House<Membership>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "renew_membership", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("renew_membership", cue.body());
    house.book.mark_in_progress(sk.storage_key(), &fp).await?;
    let member = house
        .crm
        .find(&patron.org_id, &patron.user_id)
        .await
        .expect("every patron has a CRM record");
    let renewed = match house.crm.renew(&member, &req.level, req.gift_aid).await {
        Ok(r) => r,
        Err(e) => {
            house.book.abandon(sk.storage_key()).await?;
            return Err(e.into());
        }
    };
    house.book.mark_done(sk.storage_key(), &renewed.to_bytes()).await?;
    Ok(Curtain::json(200, &renewed))
}

pub async fn upgrade(cue: Cue, patron: Patron, JsonPart(req): JsonPart<Renewal>, house: House<Membership>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "upgrade_membership", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("upgrade_membership", cue.body());
    let held = match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => return Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => held,
    };
    let member = house.crm.find(&patron.org_id, &patron.user_id).await?;
    let upgraded = house.crm.upgrade(&member, &req.level).await?;
    held.complete(upgraded.to_bytes(), KEEP).await?;
    Ok(Curtain::json(200, &upgraded))
}
