//! In-memory registry of live seat holds on one node. Holds get a server-made
//! slot id; the client's scoped key maps to the hold it created.
use std::collections::HashMap;
use std::time::Instant;

use idem_scope::{scoped, ScopeError};
use slotmap::{new_key_type, SlotMap};

new_key_type! {
    pub struct HoldId;
}

pub struct Hold {
    pub org_id: String,
    pub performance_id: String,
    pub seats: Vec<String>,
    pub expires: Instant,
}

#[derive(Default)]
pub struct HoldRegistry {
    holds: SlotMap<HoldId, Hold>,
    by_client: HashMap<String, HoldId>,
    by_performance: HashMap<(String, String), Vec<HoldId>>,
}

impl HoldRegistry {
    pub fn open(&mut self, org_id: &str, user_id: &str, client_key: &str, hold: Hold) -> Result<HoldId, ScopeError> {
        let sk = scoped(org_id, user_id, "hold_seats", client_key)?;
        if let Some(existing) = self.by_client.get(sk.storage_key()) {
            return Ok(*existing);
        }
        let perf = (hold.org_id.clone(), hold.performance_id.clone());
        let id = self.holds.insert(hold);
        self.by_client.insert(sk.storage_key().to_owned(), id);
        self.by_performance.entry(perf).or_default().push(id);
        Ok(id)
    }

    pub fn expire(&mut self, now: Instant) -> usize {
        let stale: Vec<HoldId> = self.holds.iter().filter(|(_, h)| h.expires <= now).map(|(id, _)| id).collect();
        for id in &stale {
            self.holds.remove(*id);
        }
        self.by_client.retain(|_, id| !stale.contains(id));
        stale.len()
    }
}
