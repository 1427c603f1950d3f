use std::time::Duration;

use idem_scope::{scoped, ScopedKey};

use crate::auth::Principal;
use crate::idem::{IdemLocks, LockState};
use crate::rails::{PayoutRail, RailKind};

pub struct PayoutDispatcher {
    idem: IdemLocks,
    ach: PayoutRail,
    rtp: PayoutRail,
}

pub struct DispatchCmd {
    pub rail: RailKind,
    pub amount_minor: i64,
    pub beneficiary: String,
}

impl PayoutDispatcher {
    fn key_for(p: &Principal, idem_key: &str) -> Result<ScopedKey, idem_scope::ScopeError> {
        scoped(&p.org_id, &p.user_id, "payout.dispatch", idem_key)
    }

    pub async fn dispatch(&self, p: &Principal, idem_key: &str, cmd: DispatchCmd) -> Result<String, crate::Error> {
        let key = Self::key_for(p, idem_key)?;
        match self.idem.try_lock(&key, Duration::from_secs(60)).await? {
            LockState::Acquired => {}
            LockState::Held => return Err(crate::Error::InProgress),
            LockState::Done(prev) => return Ok(prev),
        }

        let rail = match cmd.rail {
            RailKind::Ach => &self.ach,
            RailKind::Rtp => &self.rtp,
            RailKind::Wire => unreachable!("wires are routed to the treasury desk"),
        };
        let receipt = match rail.send(&p.org_id, &cmd.beneficiary, cmd.amount_minor).await {
            Ok(r) => r,
            Err(e) => {
                self.idem.unlock(&key).await?;
                return Err(e.into());
            }
        };
        if receipt.id.is_empty() {
            panic!("rail returned an empty receipt id");
        }
        self.idem.store_response(&key, &receipt.id).await?;
        Ok(receipt.id)
    }
}
