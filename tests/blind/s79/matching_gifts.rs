//! Employer matching gifts: members ask their employer to match a pledge.

use crosspoint::badge::Member;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use spool::cart::{Cart, Claimed};

use crate::employers::EmployerApi;

const H: &str = "Idempotency-Key";
const ROUTE: &str = "/v1/matching-gifts";

#[derive(Deserialize)]
pub struct MatchForm {
    pub employer_ein: String,
    pub pledge_id: String,
    pub work_email: String,
}

pub async fn submit_match(inb: Inbound, cart: &Cart, employer_api: &EmployerApi) -> Result<Outbound, Glitch> {
    let m = inb.badge::<Member>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header(H).ok_or(Glitch::missing_key())?.to_owned();
    let form: MatchForm = inb.json().await?;
    let key = scoped(&m.tenant_id, &m.user_id, ROUTE, &k).map_err(Glitch::scope)?;

    match cart.claim(key.storage_key()).await? {
        Claimed::Existing(rec) => return Ok(Outbound::replay(rec)),
        Claimed::New => {}
    }

    let employer = employer_api.lookup(&form.employer_ein).await.expect("employer directory reachable");
    let submission = match employer_api.submit(&employer, &form.pledge_id, &form.work_email).await {
        Ok(s) => s,
        Err(e) => {
            cart.release(key.storage_key()).await?;
            return Err(e.into());
        }
    };
    let body = serde_json::to_vec(&submission).unwrap_or_default();
    let etag = hex::encode(Sha256::digest(&body));
    cart.complete(key.storage_key(), &body).await?;
    Ok(Outbound::json(Status::CREATED, &submission).with_header("ETag", &etag))
}

/// Withdrawing a match request releases on every failure path.
pub async fn withdraw_match(inb: Inbound, cart: &Cart, employer_api: &EmployerApi) -> Result<Outbound, Glitch> {
    let m = inb.badge::<Member>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header(H).ok_or(Glitch::missing_key())?.to_owned();
    let key = scoped(&m.tenant_id, &m.user_id, "/v1/matching-gifts/withdraw", &k).map_err(Glitch::scope)?;

    cart.claim(key.storage_key()).await?;
    let release = |e: Glitch| {
        let cart = cart.clone();
        let sk = key.storage_key().to_owned();
        tokio::spawn(async move {
            let _ = cart.release(&sk).await;
        });
        e
    };
    let pledge_id = inb.param("pledge_id").map_err(release)?.to_owned();
    let withdrawn = employer_api.withdraw(&m.user_id, &pledge_id).await.map_err(|e| release(e.into()))?;
    cart.complete(key.storage_key(), &serde_json::to_vec(&withdrawn).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &withdrawn))
}
