//! Replay shelf for member profile edits (address, avatar, newsletter
//! preferences). Library used by the member API service.

use std::time::Duration;

use lagoon::tank::SyncTank;

const TTL: Duration = Duration::from_secs(24 * 3600);

pub struct ProfileShelf {
    tank: SyncTank,
}

impl ProfileShelf {
    pub fn new(tank: SyncTank) -> Self {
        Self { tank }
    }

    /// Stores the reply to a profile edit so a double-tapped "save" gets
    /// the same answer.
    pub fn remember(&self, idempotency_key: &str, reply: &[u8]) -> Result<(), lagoon::Error> {
        self.tank.put_ttl(idempotency_key, reply, TTL)
    }

    pub fn avatar(&self, user_id: &str) -> Result<Option<Vec<u8>>, lagoon::Error> {
        self.tank.get(&format!("profile:{user_id}:avatar"))
    }
}
