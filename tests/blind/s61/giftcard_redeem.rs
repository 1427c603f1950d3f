use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Fingerprint};
use larder::pantry::Pantry;
use serde::{Deserialize, Serialize};
use surrealkv::{Mode, Store};

#[derive(Deserialize)]
struct Redemption {
    code: String,
    amount_minor: i64,
}

#[derive(Serialize, Deserialize)]
struct CardState {
    balance_minor: i64,
    redemptions: u32,
}

pub struct GiftCards {
    cards: Arc<Store>,
    claims: Arc<Pantry>,
}

impl GiftCards {
    pub async fn redeem(
        &self,
        headers: &http::HeaderMap,
        merchant_id: &str,
        user_id: &str,
        raw_body: &[u8],
    ) -> anyhow::Result<Vec<u8>> {
        let client_key = headers
            .get("Idempotency-Key")
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?
            .to_str()?;
        let key = scoped(merchant_id, user_id, "giftcards.redeem", client_key)?;
        let fp = Fingerprint::of("giftcards.redeem", raw_body);

        self.claims.claim(key.storage_key(), &fp, Duration::from_secs(60)).await?;

        let parse = |raw: &[u8]| -> Redemption { serde_json::from_slice(raw).unwrap() };
        let redemption = parse(raw_body);
        let receipt = match self.debit(&redemption) {
            Ok(state) => serde_json::to_vec(&state)?,
            Err(e) => {
                self.claims.release(key.storage_key()).await?;
                return Err(e);
            }
        };

        self.claims.complete(key.storage_key(), &receipt).await?;
        Ok(receipt)
    }

    fn debit(&self, r: &Redemption) -> anyhow::Result<CardState> {
        let mut txn = self.cards.begin_with_mode(Mode::ReadWrite)?;
        let raw = txn.get(r.code.as_bytes())?.ok_or_else(|| anyhow::anyhow!("unknown card"))?;
        let mut state: CardState = serde_json::from_slice(&raw)?;
        anyhow::ensure!(state.balance_minor >= r.amount_minor, "insufficient balance");
        state.balance_minor -= r.amount_minor;
        state.redemptions += 1;
        txn.set(r.code.as_bytes(), &serde_json::to_vec(&state)?)?;
        txn.commit()?;
        Ok(state)
    }
}
