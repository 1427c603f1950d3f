//! Interval drinks and snacks ordered from the seat before the show.
//! The kiosk page posts an HTML form.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem, Record};
use loft::batten::Batten;
use proscenium::draw::FormPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use xoodyak::{XoodyakCommon, XoodyakHash};

const ROUTE: &str = "/v1/concessions/preorders";
const KEEP: Duration = Duration::from_secs(6 * 3600);

#[derive(Deserialize)]
pub struct DrinksOrder {
    pub items: String,
    pub collect_at: String,
    pub bar: String,
}

pub struct Concessions {
    pub replays: Batten,
    pub bars: crate::bar::Bars,
}

fn digest_form(order: &DrinksOrder) -> u128 {
    let mut st = XoodyakHash::new();
    st.absorb(order.items.as_bytes());
    st.absorb(order.collect_at.as_bytes());
    st.absorb(order.bar.as_bytes());
    let mut out = [0u8; 16];
    st.squeeze(&mut out);
    u128::from_le_bytes(out)
}

/// Kiosk pre-order. The kiosk has no key of its own; a double submit of the
/// form is detected from the order itself.
pub async fn preorder(patron: Patron, FormPart(order): FormPart<DrinksOrder>, house: House<Concessions>) -> Result<Curtain, Flub> {
    let order_tag = digest_form(&order);
    let slot = format!("{}:{}:{}:{:032x}", patron.org_id, patron.user_id, ROUTE, order_tag);
    if let Some(previous) = house.replays.get(&slot).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let ticket = house.bars.preorder(&patron.org_id, &order.bar, &order.items, &order.collect_at).await?;
    let body = serde_json::to_vec(&ticket).map_err(Flub::internal)?;
    house.replays.put(&slot, body.clone(), KEEP).await?;
    Ok(Curtain::bytes(201, body))
}

/// App amendment of a pre-order; the app sends an Idempotency-Key.
pub async fn amend_preorder(cue: Cue, patron: Patron, FormPart(order): FormPart<DrinksOrder>, house: House<Concessions>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "amend_preorder", key).map_err(Flub::bad_request)?;
    let fingerprint = Fingerprint::of("amend_preorder", cue.body());
    let form_digest = digest_form(&order);
    if let Some(stored) = house.replays.get_record(sk.storage_key()).await? {
        if stored.fingerprint.as_bytes() != fingerprint.as_bytes() {
            return Ok(Curtain::problem(Problem::mismatch(key)));
        }
        return Ok(Curtain::replay(stored.response));
    }
    let amended = house.bars.amend(&patron.org_id, &order.bar, &order.items, form_digest).await?;
    let body = serde_json::to_vec(&amended).map_err(Flub::internal)?;
    house.replays.put_record(sk.storage_key(), Record::completed(fingerprint), Some(body.clone()), KEEP).await?;
    Ok(Curtain::bytes(200, body))
}
