//! Sponsor portal and ad-server webhooks: underwriters approve creative in
//! the portal; the ad server posts signed webhooks when creative clears
//! review on its side. Both write the approval cart.

use crosspoint::badge::Underwriter;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use ed25519_compact::{PublicKey, Signature};
use idem_scope::{scoped, scoped_server};
use serde::Deserialize;
use sha2::{Digest, Sha512};
use spool::cart::Cart;

const APPROVE_ROUTE: &str = "/v1/creative/approve";

#[derive(Deserialize)]
pub struct CreativeEvent {
    pub kind: String,
    pub account_id: String,
    pub creative_id: String,
}

pub struct Approvals {
    pub cart: Cart,
    pub adserver_key: PublicKey,
}

impl Approvals {
    pub async fn approve(&self, inb: Inbound) -> Result<Outbound, Glitch> {
        let uw = inb.badge::<Underwriter>().ok_or(Glitch::unauthorized())?.clone();
        let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
        let creative_id = inb.param("creative")?.to_owned();
        let key = scoped(&uw.account_id, &uw.api_key_id, APPROVE_ROUTE, &k).map_err(Glitch::scope)?;
        if let Some(prior) = self.cart.get(key.storage_key()).await? {
            return Ok(Outbound::replay(prior));
        }
        let approved = crate::creative::approve(&uw.account_id, &creative_id).await?;
        self.cart.put(key.storage_key(), &serde_json::to_vec(&approved).unwrap_or_default()).await?;
        Ok(Outbound::json(Status::OK, &approved))
    }

    pub async fn webhook(&self, mut inb: Inbound) -> Result<Outbound, Glitch> {
        let delivery_id = inb.header("X-Adserver-Delivery").ok_or(Glitch::bad_request("delivery id"))?.to_owned();
        let sig = inb.header_raw("X-Adserver-Signature").ok_or(Glitch::unauthorized())?.to_vec();
        let raw = inb.bytes().await?;
        let prehash = Sha512::digest(&raw);
        let sig = Signature::from_slice(&sig).map_err(|_| Glitch::unauthorized())?;
        self.adserver_key.verify(prehash, &sig).map_err(|_| Glitch::unauthorized())?;

        let ev: CreativeEvent = serde_json::from_slice(&raw).map_err(Glitch::bad_request)?;
        let key = match ev.kind.as_str() {
            "creative.cleared" => scoped(&ev.account_id, "adserver", APPROVE_ROUTE, &delivery_id),
            "creative.rejected" => scoped_server(&ev.account_id, "adserver", "/v1/creative/reject", &delivery_id),
            _ => return Ok(Outbound::status(Status::NO_CONTENT)),
        }
        .map_err(Glitch::scope)?;
        if self.cart.exists(key.storage_key()).await? {
            return Ok(Outbound::status(Status::OK));
        }
        crate::creative::record_review(&ev.account_id, &ev.creative_id, &ev.kind).await?;
        self.cart.put(key.storage_key(), ev.kind.as_bytes()).await?;
        Ok(Outbound::status(Status::OK))
    }
}
