//! Replay cache used by partner integrations (linked as a library; the
//! partner adapters call it with the values from their own requests).

use marrow::Table;

#[derive(Debug, thiserror::Error)]
pub enum SlotError {
    #[error("{0} contains a reserved character")]
    Reserved(&'static str),
    #[error(transparent)]
    Store(#[from] marrow::Error),
}

pub fn replay_slot(tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> String {
    format!("{tenant_id}/{user_id}/{route}/{idempotency_key}")
}

pub struct OutcomeCache {
    bucket: Table,
}

impl OutcomeCache {
    pub fn open(path: &str) -> Result<Self, SlotError> {
        Ok(Self { bucket: Table::open(path, "partner_replays")? })
    }

    pub fn get(&self, tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Result<Option<Vec<u8>>, SlotError> {
        for (name, part) in [("tenant", tenant_id), ("user", user_id), ("route", route)] {
            if part.contains('/') {
                return Err(SlotError::Reserved(name));
            }
        }
        Ok(self.bucket.get(&replay_slot(tenant_id, user_id, route, idempotency_key))?)
    }

    /// Old adapters looked outcomes up before they knew the caller.
    pub fn get_unscoped(&self, idempotency_key: &str) -> Result<Option<Vec<u8>>, SlotError> {
        Ok(self.bucket.get(idempotency_key)?)
    }
}
