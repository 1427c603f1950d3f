//! Station kiosks sell to signed-in riders (card tap linked to an account)
//! and to walk-up buyers paying contactless.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::{Kiosk, MaybeRider};
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

const GUEST_USER: &str = "guest";

#[derive(Decode)]
pub struct KioskOrder {
    pub product: String,
    pub quantity: u8,
    pub display_name: Option<String>,
}

pub struct KioskCheckout {
    replays: Bay,
    till: crate::till::Till,
}

impl KioskCheckout {
    pub async fn checkout(&self, hail: Hail, kiosk: Kiosk, rider: MaybeRider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let order: KioskOrder = hail.json()?;

        let buyer = rider.0.as_ref().map_or_else(|| GUEST_USER.to_string(), |r| r.user_id.clone());
        let greeting = order.display_name.as_deref().map_or_else(|| "Guest".to_string(), |n| format!("Hi {n}"));

        let key = scoped(&kiosk.tenant_id, &buyer, "kiosk.checkout", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let sale = self.till.sell(&kiosk.tenant_id, &kiosk.client_id, &order.product, order.quantity).await?;
        let body = wharf::codec::to_vec(&wharf::json!({ "sale": sale, "greeting": greeting }))?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
