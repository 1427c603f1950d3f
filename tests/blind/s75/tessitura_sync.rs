//! Tessitura CRM pushes constituent changes to us, and patrons edit their
//! profile through our API. Both paths share the profile replay batten.
use std::time::Duration;

use idem_scope::{scoped, Problem, ScopeError, ScopedKey};
use loft::batten::Batten;
use proscenium::callout::Callout;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const KEEP: Duration = Duration::from_secs(7 * 86_400);

#[derive(Deserialize)]
pub struct ConstituentChange {
    pub constituent_id: String,
    pub email: Option<String>,
    pub phone: Option<String>,
}

pub struct Crm {
    pub batten: Batten,
    pub profiles: crate::patrons::Profiles,
    pub sites: crate::tessitura::Sites,
    pub mirror_url: String,
}

fn delivery_key(org_id: &str, delivery: &str) -> Result<ScopedKey, ScopeError> {
    scoped(org_id, "tessitura", "constituent_sync", delivery)
}

pub async fn update_profile(cue: Cue, patron: Patron, house: House<Crm>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let change: ConstituentChange = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    let sk = scoped(&patron.org_id, &patron.user_id, "update_profile", key).map_err(Flub::bad_request)?;
    if let Some(previous) = house.batten.get(sk.storage_key()).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let profile = house.profiles.update(&patron.org_id, &patron.user_id, change.email.as_deref(), change.phone.as_deref()).await?;
    house.batten.put(sk.storage_key(), profile.to_bytes(), KEEP).await?;
    Ok(Curtain::json(200, &profile))
}

pub async fn tessitura_push(cue: Cue, house: House<Crm>) -> Result<Curtain, Flub> {
    let delivery = cue
        .header("X-Tessitura-Delivery")
        .ok_or_else(|| Flub::bad_request("delivery id missing"))?;
    let site = cue
        .header("X-Tessitura-Site")
        .ok_or_else(|| Flub::bad_request("site missing"))?;
    let org_id = house.sites.org_for(site).await?.ok_or_else(|| Flub::forbidden("unknown site"))?;
    let sk = delivery_key(&org_id, delivery).map_err(Flub::bad_request)?;
    if house.batten.exists(sk.storage_key()).await? {
        return Ok(Curtain::new(200));
    }
    let change: ConstituentChange = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    house.profiles.apply_crm_change(&org_id, &change.constituent_id, change.email.as_deref(), change.phone.as_deref()).await?;
    house.batten.put(sk.storage_key(), b"applied".to_vec(), KEEP).await?;

    let _ = Callout::post(&house.mirror_url)
        .header("Idempotency-Key", delivery)
        .bytes(cue.body().to_vec())
        .send()
        .await;
    Ok(Curtain::new(200))
}
