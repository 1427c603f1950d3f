//! Corporate top-ups: an employer's benefits system tops up employee wallets
//! through the partner API. Records go through the tally book so finance
//! sees in-flight top-ups.

use hopper::tally::Tally;
use idem_scope::{scoped, Problem};
use wharf::badge::PartnerKey;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::limits::Limits;
use crate::wallets::WalletBook;

#[derive(Decode)]
pub struct CorporateTopUp {
    pub wallet_id: String,
    pub amount_minor: i64,
}

#[derive(Decode)]
pub struct Reversal {
    pub topup_id: String,
}

pub struct CorporateTopUps {
    tally: Tally,
    wallets: WalletBook,
    limits: Limits,
}

impl CorporateTopUps {
    pub async fn topup(&self, hail: Hail, partner: PartnerKey) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: CorporateTopUp = hail.json()?;
        let key = scoped(&partner.account_id, &partner.client_id, "corporate.topup", k)?;

        self.tally.mark_in_progress(key.storage_key()).await?;
        let (wallet, limits) = tokio::try_join!(
            self.wallets.find(&partner.account_id, &req.wallet_id),
            self.limits.for_account(&partner.account_id),
        )?;
        let applied = wallet.credit(req.amount_minor.min(limits.per_topup_minor));
        let body = wharf::json!({ "wallet": req.wallet_id, "credited_minor": applied }).to_string().into_bytes();
        self.tally.mark_done(key.storage_key(), &body).await?;
        Ok(Answer::bytes(Code::Created, body))
    }

    pub async fn reverse(&self, hail: Hail, partner: PartnerKey) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: Reversal = hail.json()?;
        let key = scoped(&partner.account_id, &partner.client_id, "corporate.reverse", k)?;

        self.tally.mark_in_progress(key.storage_key()).await?;
        let out = match self.wallets.reverse_topup(&partner.account_id, &req.topup_id).await {
            Ok(o) => o,
            Err(e) => {
                self.tally.abandon(key.storage_key()).await.ok();
                return Err(e.into());
            }
        };
        self.tally.mark_done(key.storage_key(), &out.to_bytes()).await?;
        Ok(Answer::bytes(Code::Ok, out.to_bytes()))
    }
}
