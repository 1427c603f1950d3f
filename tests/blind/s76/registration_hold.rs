//! Course-registration seat holds. A student places a hold on a section while an
//! advisor approval is pending; a retried POST must answer with the first hold
//! instead of stacking a second one.

use std::sync::Arc;
use std::time::Duration;

use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::{Deserialize, Serialize};

use crate::seats::SeatBook;

const REPLY_TTL: Duration = Duration::from_secs(86_400);

#[derive(Deserialize)]
pub struct HoldIn {
    pub section_id: String,
    pub term: String,
}

#[derive(Serialize)]
pub struct HoldOut {
    pub hold_id: String,
    pub expires_in: u64,
}

/// Turns (card, matched route, client token) into the slot the reply is kept under.
type Shaper = Box<dyn Fn(&Student, &str, &str) -> String + Send + Sync>;

pub struct HoldDesk {
    pouch: Arc<Pouch>,
    shape: Shaper,
    seats: Arc<SeatBook>,
}

impl HoldDesk {
    pub fn new(pouch: Arc<Pouch>, seats: Arc<SeatBook>) -> Self {
        let shape: Shaper = Box::new(|card, route, token| {
            format!("{}|{}|{}|{}", card.tenant_id, card.user_id, route, token)
        });
        Self { pouch, shape, seats }
    }

    pub async fn place(&self, ask: &Ask) -> Result<Tell, Hitch> {
        let card = ask.badge::<Student>()?;
        let Some(token) = ask.head("Idempotency-Key") else {
            return Ok(Tell::status(Mark::BAD_REQUEST).text("Idempotency-Key required"));
        };
        let route = ask.slot();
        let slot = (self.shape)(&card, route, token);
        if let Some(prior) = self.pouch.get(&slot).await? {
            return Ok(Tell::bytes(Mark::OK, prior).header("Idempotent-Replayed", "true"));
        }

        let input: HoldIn = ask.json()?;
        let hold = self.seats.hold(&card.tenant_id, &input.section_id, &input.term).await?;
        tracing::info!(hold = %hold.id, "{}", format!("placed hold for retry token {token}"));

        let out = serde_json::to_vec(&HoldOut { hold_id: hold.id.clone(), expires_in: 900 })?;
        self.pouch.put_ttl(&slot, &out, REPLY_TTL).await?;
        Ok(Tell::bytes(Mark::CREATED, out))
    }

    /// Advisors look up a hold by section; no client token is involved here.
    pub async fn section_holds(&self, ask: &Ask) -> Result<Tell, Hitch> {
        let card = ask.badge::<Student>()?;
        let section = ask.param("section").unwrap_or("all");
        let listing = format!("holds:{}:{}", card.tenant_id, section);
        let cached = self.pouch.get(&listing).await?;
        Ok(Tell::bytes(Mark::OK, cached.unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lectern::testing::AskBuilder;
    use satchel::testing::MemPouch;

    #[tokio::test]
    async fn replayed_hold_is_served_from_the_pouch() {
        let pouch = MemPouch::new();
        let token = "retry-1";
        pouch.put(token, b"{\"hold_id\":\"h1\"}").await.unwrap();
        let slot = format!("campus-a|{}", token);
        pouch.put(&slot, b"{\"hold_id\":\"h1\"}").await.unwrap();
        let ask = AskBuilder::post("/v1/registration/holds").header("Idempotency-Key", token).build();
        assert_eq!(ask.head("Idempotency-Key"), Some(token));
    }
}
