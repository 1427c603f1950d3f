//! Gift vouchers: bought by anyone on a venue's page, redeemed by signed-in patrons.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::{MaybePatron, Patron};
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(45);
const KEEP: Duration = Duration::from_secs(48 * 3600);

#[derive(Deserialize)]
pub struct VoucherOrder {
    pub amount_minor: i64,
    pub recipient_email: String,
    pub gift_message: Option<String>,
}

#[derive(Deserialize)]
pub struct Redeem {
    pub code: String,
    pub on_behalf_of: Option<String>,
}

pub struct Vouchers {
    pub batten: Batten,
    pub issuer: crate::vouchers::Issuer,
}

pub async fn buy_voucher(
    cue: Cue,
    MaybePatron(who): MaybePatron,
    JsonPart(req): JsonPart<VoucherOrder>,
    house: House<Vouchers>,
) -> Result<Curtain, Flub> {
    let org = cue.param("org").ok_or_else(|| Flub::not_found("venue"))?;
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let buyer = who.as_ref().map_or("public", |p| p.user_id.as_str());
    let message = req.gift_message.clone().unwrap_or_default();
    let sk = scoped(org, buyer, "buy_voucher", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("buy_voucher", cue.body());
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let voucher = house
                .issuer
                .issue(org, req.amount_minor, &req.recipient_email, &message)
                .await?;
            let body = serde_json::to_vec(&voucher).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}

/// Box-office staff can redeem for a patron standing at the desk; otherwise the
/// signed-in patron redeems for themself.
pub async fn redeem(cue: Cue, patron: Patron, JsonPart(req): JsonPart<Redeem>, house: House<Vouchers>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let on_behalf = req.on_behalf_of.as_deref().unwrap_or(&patron.user_id);
    let sk = scoped(&patron.org_id, on_behalf, "redeem_voucher", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("redeem_voucher", cue.body());
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let credit = house.issuer.redeem(&patron.org_id, on_behalf, &req.code).await?;
            let body = serde_json::to_vec(&credit).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(200, body))
        }
    }
}
