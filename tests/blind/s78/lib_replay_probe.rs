//! Replay probe used by the support console to check whether a customer's
//! request was already recorded. The console builds probes from ticket data.

use aquifer::tank::SyncTank;

pub struct ReplayProbe {
    pub tenant_id: String,
    pub idempotency_key: String,
    pub opened_by: String,
}

impl ReplayProbe {
    pub fn recorded(&self, tank: &SyncTank) -> Result<bool, aquifer::TankError> {
        let slot = serde_json::to_vec(&(&self.tenant_id, &self.idempotency_key)).map_err(aquifer::TankError::encode)?;
        tank.exists(&slot)
    }

    pub fn summary(&self) -> String {
        format!("probe {} by {}", self.idempotency_key, self.opened_by)
    }
}
