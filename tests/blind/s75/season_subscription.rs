//! Season subscriptions: a patron picks a plan (six plays, flex pass, ...).
use std::time::Duration;

use idem_scope::{scoped, Problem};
use loft::batten::Batten;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use sha2::{Digest, Sha256};

const LEASE: Duration = Duration::from_secs(90);
const DAY: Duration = Duration::from_secs(86_400);

#[derive(Deserialize)]
pub struct SeasonPlan {
    pub season: String,
    pub tier: String,
    pub instalments: u8,
}

#[derive(Deserialize)]
pub struct TierChange {
    pub subscription_id: String,
    pub new_tier: String,
}

pub struct Subs {
    pub batten: Batten,
    pub sessions: Batten,
    pub billing: crate::billing::Billing,
}

/// Looks up the app session behind a bearer token; the token itself is never stored.
pub async fn session_for(cue: &Cue, subs: &Subs) -> Result<Option<Vec<u8>>, Flub> {
    let token = cue
        .header("authorization")
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or_else(|| Flub::unauthorized("bearer token required"))?;
    let token_digest = format!("{:x}", Sha256::digest(token.as_bytes()));
    Ok(subs.sessions.get(&token_digest).await?)
}

pub async fn subscribe(cue: Cue, patron: Patron, house: House<Subs>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "subscribe", key).map_err(Flub::bad_request)?;
    if !house.batten.claim(sk.storage_key(), LEASE).await? {
        return Ok(Curtain::problem(Problem::in_progress(key)));
    }
    let plan: SeasonPlan = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    let sub = match house.billing.start_subscription(&patron, &plan.season, &plan.tier, plan.instalments).await {
        Ok(s) => s,
        Err(e) => {
            house.batten.release(sk.storage_key()).await?;
            return Err(e.into());
        }
    };
    house.batten.complete(sk.storage_key(), sub.to_bytes(), DAY).await?;
    Ok(Curtain::json(201, &sub))
}

pub async fn change_tier(cue: Cue, patron: Patron, house: House<Subs>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "change_tier", key).map_err(Flub::bad_request)?;
    if !house.batten.claim(sk.storage_key(), LEASE).await? {
        return Ok(Curtain::problem(Problem::in_progress(key)));
    }
    let outcome = async {
        let change: TierChange = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
        house
            .billing
            .change_tier(&patron, &change.subscription_id, &change.new_tier)
            .await
            .map_err(Flub::from)
    }
    .await;
    match outcome {
        Ok(sub) => {
            house.batten.complete(sk.storage_key(), sub.to_bytes(), DAY).await?;
            Ok(Curtain::json(200, &sub))
        }
        Err(fault) => {
            house.batten.release(sk.storage_key()).await?;
            Err(fault)
        }
    }
}
