//! Linking a physical smartcard to an account. Some agencies sign riders in
//! through a regional SSO whose subjects are path-like ("people/8812/").

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::SsoClaims;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode)]
pub struct LinkCard {
    pub card_serial: String,
    pub card_label: Option<String>,
}

pub struct CardLinks {
    replays: Bay,
    cards: crate::cards::CardService,
}

impl CardLinks {
    pub async fn link(&self, hail: Hail, claims: SsoClaims) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: LinkCard = hail.json()?;

        let subject = claims.sub.trim_end_matches('/');
        let label = req.card_label.as_deref().unwrap_or_default().trim_end_matches('/');

        let key = scoped(&claims.org_id, subject, "cards.link", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let linked = self.cards.link(&claims.org_id, subject, &req.card_serial, label).await?;
        let body = wharf::codec::to_vec(&linked)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
