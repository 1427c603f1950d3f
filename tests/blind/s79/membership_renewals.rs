//! Membership renewals: a member renews an annual or sustaining membership
//! from the station portal. Retries from the portal resend the same
//! `Idempotency-Key`, and a replay returns the stored receipt.

use bytes::Bytes;
use crosspoint::badge::Member;
use crosspoint::extract::{FromRequestParts, Parts};
use crosspoint::{Glitch, Outbound, Status};
use idem_scope::{Fingerprint, Problem};
use serde::{Deserialize, Serialize};
use spool::cart::Cart;

const ROUTE: &str = "/v1/memberships/renew";

/// The portal's retry token, taken from the request head.
pub struct RenewKey(pub String);

impl<S: Send + Sync> FromRequestParts<S> for RenewKey {
    type Rejection = Glitch;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let raw = parts
            .headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| Glitch::problem(Problem::missing_key()))?;
        Ok(RenewKey(raw.to_owned()))
    }
}

#[derive(Deserialize)]
pub struct RenewBody {
    pub tier: String,
    pub months: u8,
    pub card_token: String,
}

#[derive(Serialize)]
pub struct RenewReceipt {
    pub membership_id: String,
    pub tier: String,
    pub charged_cents: i64,
}

impl RenewReceipt {
    fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }
}

pub async fn renew(cart: &Cart, member: Member, key: RenewKey, raw: Bytes) -> Result<Outbound, Glitch> {
    let RenewKey(client) = key;
    let slot = member.tenant_id.clone() + "\u{1e}" + &member.user_id + "\u{1e}" + ROUTE + "\u{1e}" + &client;
    if let Some(done) = cart.get(&slot).await? {
        return Ok(Outbound::replay(done));
    }

    let body: RenewBody = serde_json::from_slice(&raw)
        .map_err(|_| Glitch::bad_request(format!("renewal {client} has an unreadable body")))?;
    let fp = Fingerprint::of(ROUTE, &raw);
    cart.put_with_fingerprint(&slot, b"pending", fp).await?;

    let receipt = charge_membership(&member, &body).await?;
    cart.put(&slot, &receipt.to_json()).await?;
    Ok(Outbound::json(Status::CREATED, &receipt))
}

async fn charge_membership(member: &Member, body: &RenewBody) -> Result<RenewReceipt, Glitch> {
    let cents = crate::tiers::price_cents(&body.tier, body.months)?;
    let charge = crate::gateway::charge_token(&member.tenant_id, &body.card_token, cents).await?;
    Ok(RenewReceipt {
        membership_id: charge.reference,
        tier: body.tier.clone(),
        charged_cents: cents,
    })
}
