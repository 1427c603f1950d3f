use std::time::Duration;

use idem_scope::scoped;
use sextant::records::Records;
use sextant::slots::SlotBook;

pub enum Step {
    CreateAccount,
    VerifyBank,
    Activate,
    Archived,
}

pub struct Onboarding {
    records: Records,
    slots: SlotBook,
    kyb: crate::kyb::KybApi,
}

impl Onboarding {
    pub async fn advance(&self, tenant_id: &str, user_id: &str, key: &str, step: Step) -> eyre::Result<()> {
        let sk = scoped(tenant_id, user_id, "onboarding_advance", key)?;
        self.records.mark_in_progress(&sk).await?;
        let outcome = match step {
            Step::CreateAccount => self.kyb.create_account(tenant_id).await,
            Step::VerifyBank => self.kyb.verify_bank(tenant_id).await,
            Step::Activate => self.kyb.activate(tenant_id).await,
            Step::Archived => panic!("archived tenants cannot advance"),
        };
        match outcome {
            Ok(v) => self.records.mark_done(&sk, &v).await?,
            Err(e) => {
                self.records.release(&sk).await?;
                return Err(e.into());
            }
        }
        Ok(())
    }

    pub async fn schedule_call(&self, tenant_id: &str, user_id: &str, key: &str) -> eyre::Result<Vec<u8>> {
        let sk = scoped(tenant_id, user_id, "onboarding_call", key)?;
        let pending = self.slots.begin(&sk, Duration::from_secs(300)).await?;
        let booked = self.kyb.book_call(tenant_id).await?;
        pending.complete(&booked).await?;
        Ok(booked)
    }

    pub async fn progress(&self, tenant_id: &str, user_id: &str, key: &str) -> eyre::Result<Option<Vec<u8>>> {
        let sk = scoped(tenant_id, user_id, "onboarding_advance", key)?;
        Ok(self.records.get(&sk).await?)
    }
}
