use std::collections::BTreeMap;

use idem_scope::ScopedKey;
use openraft::{Entry, EntryPayload, LogId, StoredMembership};
use serde::{Deserialize, Serialize};

use crate::raft::{NodeId, TypeConfig};

/// A response replicated to every replica. `idem_key` is the scoped storage key
/// produced by the API node, never the raw header.
#[derive(Serialize, Deserialize, Clone)]
pub struct ReplicatedReply {
    pub idem_key: String,
    pub shard: u32,
    pub status: u16,
    pub body: Vec<u8>,
}

impl ReplicatedReply {
    pub fn new(key: &ScopedKey, status: u16, body: Vec<u8>) -> Self {
        Self { idem_key: key.storage_key().to_owned(), shard: key.shard(64), status, body }
    }
}

#[derive(Default)]
pub struct ReplyStateMachine {
    last_applied: Option<LogId<NodeId>>,
    membership: StoredMembership<NodeId, openraft::BasicNode>,
    shards: BTreeMap<u32, BTreeMap<String, (u16, Vec<u8>)>>,
}

impl ReplyStateMachine {
    pub fn apply(&mut self, entries: Vec<Entry<TypeConfig>>) -> Vec<Option<u16>> {
        let mut out = Vec::with_capacity(entries.len());
        for entry in entries {
            self.last_applied = Some(entry.log_id);
            match entry.payload {
                EntryPayload::Blank => out.push(None),
                EntryPayload::Membership(m) => {
                    self.membership = StoredMembership::new(Some(entry.log_id), m);
                    out.push(None);
                }
                EntryPayload::Normal(reply) => {
                    let shard = self.shards.entry(reply.shard).or_default();
                    let previous = shard.get(&reply.idem_key).map(|(s, _)| *s);
                    if previous.is_none() {
                        shard.insert(reply.idem_key.clone(), (reply.status, reply.body));
                    }
                    out.push(previous);
                }
            }
        }
        out
    }

    pub fn snapshot_name(&self) -> String {
        let index = self.last_applied.map(|l| l.index).unwrap_or(0);
        format!("replies-{}-{}", self.shards.len(), index)
    }
}
