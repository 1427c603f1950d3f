//! Lost or stolen card reports: block the card and move the balance and any
//! passes to a replacement card.

use std::borrow::Cow;

use hopper::bay::Bay;
use idem_scope::Problem;
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

const REPORT_ROUTE: &str = "/v1/cards/report-lost";

#[derive(Decode)]
pub struct LostReport {
    pub card_id: String,
    pub last4: String,
    pub replacement_card_id: Option<String>,
}

pub struct LostCards {
    pub replays: Bay,
    pub blocklist: Bay,
    pub cards: crate::cards::CardService,
}

fn replay_slot(rider: &Rider, key: &str) -> Cow<'static, str> {
    Cow::Owned(format!("{}/{}/{}/{}", rider.tenant_id, rider.user_id, REPORT_ROUTE, key))
}

impl LostCards {
    pub async fn report(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: LostReport = hail.json()?;

        let slot = replay_slot(&rider, k);
        if let Some(prev) = self.replays.get(&slot).await? {
            return Ok(Answer::replayed(prev));
        }

        self.blocklist
            .put(&format!("card:{}:{}", rider.tenant_id, req.card_id), b"lost".to_vec())
            .await?;
        let moved = match &req.replacement_card_id {
            Some(new_card) => Some(self.cards.move_value(&rider.tenant_id, &req.card_id, new_card).await?),
            None => None,
        };

        let notice = format!("Card ending {} is blocked. Reference {}.", req.last4, k);
        let body = wharf::codec::to_vec(&wharf::json!({ "notice": notice, "moved": moved }))?;
        self.replays.put(&slot, body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
