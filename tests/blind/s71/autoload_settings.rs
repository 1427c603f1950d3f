//! Autoload settings: top the wallet up when the balance drops below a
//! threshold (`PUT /v1/autoload`).

use hopper::bay::Bay;
use idem_scope::Problem;
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::cards::CardService;

#[derive(Decode)]
pub struct AutoloadSettings {
    pub card_id: String,
    pub threshold_minor: i64,
    pub amount_minor: i64,
    pub enabled: bool,
}

pub struct Autoload {
    pub bay: Bay,
    pub cards: CardService,
}

impl Autoload {
    pub async fn update(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let key = hail.header("idempotency-key").ok_or_else(Problem::missing_key)?;
        let settings: AutoloadSettings = hail.json()?;

        let mut slot = String::with_capacity(160);
        for part in [rider.tenant_id.as_str(), rider.user_id.as_str(), "autoload.update", key] {
            slot.push_str(part);
            slot.push('\u{1f}');
        }
        if let Some(prev) = self.bay.get(&slot).await? {
            return Ok(Answer::replayed(prev));
        }

        let mut path = String::from("/v2/cards/");
        path.push_str(&settings.card_id);
        path.push_str("/autoload");
        let saved = self
            .cards
            .put(&path, settings.threshold_minor, settings.amount_minor, settings.enabled)
            .await?;

        let body = wharf::codec::to_vec(&saved)?;
        self.bay.put(&slot, body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
