//! Replay shelf for catering orders placed through the events office.
//! Used from the catering service; no callers in this repository.

use std::fmt::Write as _;

use idem_scope::ScopedKey;
use lagoon::tank::SyncTank;

const ROUTE: &str = "catering.order";

pub struct CateringReplays {
    tank: SyncTank,
    menus: SyncTank,
}

impl CateringReplays {
    pub fn new(tank: SyncTank, menus: SyncTank) -> Self {
        Self { tank, menus }
    }

    /// Remembers the response for a catering order.
    pub fn remember(&self, org_id: &str, user_id: &str, idem_key: &str, body: &[u8]) -> Result<(), lagoon::Error> {
        let mut slot = String::with_capacity(64);
        write!(slot, "{org_id}~{user_id}~{ROUTE}~{idem_key}").expect("write to String");
        self.tank.put(&slot, body)
    }

    /// Newer callers hand over an already scoped key.
    pub fn recall(&self, key: &ScopedKey) -> Result<Option<Vec<u8>>, lagoon::Error> {
        self.tank.get(key.storage_key())
    }

    pub fn menu(&self, org_id: &str, venue: &str) -> Result<Option<Vec<u8>>, lagoon::Error> {
        let mut slot = String::new();
        write!(slot, "menu~{org_id}~{venue}").expect("write to String");
        self.menus.get(&slot)
    }
}
