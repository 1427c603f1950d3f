//! Saved payment methods (cards, bank accounts) used by autoload.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::vault::CardVault;

#[derive(Decode)]
pub struct NewMethod {
    pub vault_token: String,
    pub nickname: Option<String>,
    pub make_default: bool,
}

pub struct PaymentMethods {
    pub replays: Bay,
    pub vault: CardVault,
}

impl PaymentMethods {
    pub async fn add(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let raw_key = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let raw_key = raw_key.trim();
        if raw_key.contains('\0') {
            return Ok(Answer::problem(Problem::invalid_key("control character in key")));
        }
        // Older Android builds send "pm:<uuid>" keys.
        let key = raw_key.replace(':', "_");
        let req: NewMethod = hail.json()?;

        let label = req.nickname.as_deref().unwrap_or("card").replace(':', " ");
        let scoped_key = scoped(&rider.tenant_id, &rider.user_id, "/v1/payment-methods", &key)?;
        if let Some(prev) = self.replays.get(scoped_key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }

        let method = self
            .vault
            .attach(&rider.tenant_id, &rider.user_id, &req.vault_token, &label, req.make_default)
            .await?;
        let body = wharf::codec::to_vec(&method)?;
        self.replays.put(scoped_key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
