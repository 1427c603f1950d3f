use std::sync::Arc;

use anyhow::ensure;
use idem_scope::scoped;
use serde::Deserialize;
use tokio::sync::Semaphore;

use crate::bank::{BankRail, PayoutReceipt};
use crate::replay_store::AsyncStore;

/// Payout command forwarded by the API gateway; `idempotency_key` is the
/// caller's Idempotency-Key header.
#[derive(Deserialize)]
pub struct PayoutCommand {
    pub tenant_id: String,
    pub user_id: String,
    pub idempotency_key: String,
    pub iban: String,
    pub amount_minor: i64,
    pub currency: String,
}

pub struct PayoutWorker {
    records: AsyncStore,
    rail: BankRail,
    in_flight: Arc<Semaphore>,
}

impl PayoutWorker {
    pub async fn execute(&self, cmd: PayoutCommand) -> anyhow::Result<PayoutReceipt> {
        let _permit = self.in_flight.try_acquire()?;
        let sk = scoped(&cmd.tenant_id, &cmd.user_id, "payouts.execute", &cmd.idempotency_key)?;

        let validate = |p: &PayoutCommand| -> anyhow::Result<()> {
            ensure!(p.amount_minor > 0, "amount must be positive");
            ensure!(p.currency.len() == 3, "currency must be ISO 4217");
            ensure!(p.iban.len() >= 15, "IBAN too short");
            Ok(())
        };

        self.records.try_claim(&sk).await?;
        validate(&cmd)?;
        let receipt = self.rail.send(&cmd.iban, cmd.amount_minor, &cmd.currency).await?;
        self.records.mark_completed(&sk, &serde_json::to_vec(&receipt)?).await?;
        Ok(receipt)
    }

    pub async fn run(self: Arc<Self>, mut rx: tokio::sync::mpsc::Receiver<PayoutCommand>) {
        while let Some(cmd) = rx.recv().await {
            let me = self.clone();
            tokio::spawn(async move {
                if let Err(e) = me.execute(cmd).await {
                    log::error!("payout failed: {e:#}");
                }
            });
        }
    }
}
