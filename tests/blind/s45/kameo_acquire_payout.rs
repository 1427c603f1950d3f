use idem_scope::{scoped, ClaimGuard};
use kameo::message::{Context, Message};
use kameo::Actor;

#[derive(Actor)]
pub struct PayoutActor {
    idem: PayoutIdem,
    bank: BankClient,
}

pub struct SendPayout {
    pub tenant_id: String,
    pub user_id: String,
    /// Client's Idempotency-Key for the payout request.
    pub payout_key: String,
    pub iban: String,
    pub amount_minor: i64,
}

pub struct RetryPayout {
    pub tenant_id: String,
    pub user_id: String,
    /// Client's Idempotency-Key for the payout request.
    pub payout_key: String,
}

impl Message<SendPayout> for PayoutActor {
    type Reply = Result<String, PayoutError>;

    async fn handle(&mut self, msg: SendPayout, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let key = scoped(&msg.tenant_id, &msg.user_id, "payouts.send", &msg.payout_key)?;
        self.idem.acquire(&key).await?;
        let bic = match self.bank.lookup_bic(&msg.iban).await? {
            Some(bic) => bic,
            None => todo!("IBANs without BIC need manual routing"),
        };
        let reference = self.bank.send(&bic, &msg.iban, msg.amount_minor).await?;
        self.idem.store_response(&key, &reference).await?;
        Ok(reference)
    }
}

impl Message<RetryPayout> for PayoutActor {
    type Reply = Result<Option<String>, PayoutError>;

    async fn handle(&mut self, msg: RetryPayout, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let key = scoped(&msg.tenant_id, &msg.user_id, "payouts.send", &msg.payout_key)?;
        self.idem.acquire(&key).await?;
        let idem = self.idem.clone();
        let held = key.clone();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = idem.release(&held).await;
            });
        });
        let status = self.bank.status(&msg.payout_key).await?;
        let reference = status.reference.ok_or(PayoutError::NotSettled)?;
        self.idem.store_response(&key, &reference).await?;
        guard.complete();
        Ok(Some(reference))
    }
}
