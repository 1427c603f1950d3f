use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use git2::{ObjectType, Oid};
use lintel::{Answer, Call, Code};
use slog::{info, Logger};

use crate::configs::{ConfigStore, Revision};

type PublishSlot = (String, String, &'static str, String);

/// Config bundles pushed by deploy tooling; repeated pushes of the same
/// bundle are collapsed onto the first revision.
pub struct ConfigPublisher {
    store: Arc<ConfigStore>,
    dedup: RwLock<BTreeMap<PublishSlot, Revision>>,
    log: Logger,
}

impl ConfigPublisher {
    pub async fn publish(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        if call.body().is_empty() {
            return Answer::text(Code::BAD_REQUEST, "empty bundle");
        }
        let oid = match Oid::hash_object(ObjectType::Blob, call.body()) {
            Ok(o) => o,
            Err(e) => return Answer::text(Code::BAD_REQUEST, &e.to_string()),
        };

        let mut dedup = match self.dedup.write() {
            Ok(g) => g,
            Err(_) => return Answer::status(Code::INTERNAL_SERVER_ERROR),
        };
        match dedup.entry((who.project_id.clone(), who.user_id.clone(), "config_publish", oid.to_string())) {
            Entry::Occupied(e) => Answer::text(Code::OK, &e.get().to_json()),
            Entry::Vacant(v) => {
                let rev = match self.store.commit_bundle(&who.project_id, call.body()) {
                    Ok(r) => r,
                    Err(e) => return Answer::text(Code::CONFLICT, &e.to_string()),
                };
                info!(self.log, "config published"; "project" => &who.project_id, "oid" => %oid);
                let body = rev.to_json();
                v.insert(rev);
                Answer::text(Code::CREATED, &body)
            }
        }
    }

    pub fn current(&self, _call: Call, project_id: &str) -> Answer {
        match self.store.head(project_id) {
            Some(rev) => {
                let tag = Oid::hash_object(ObjectType::Blob, &rev.bundle).map(|o| o.to_string()).unwrap_or_default();
                Answer::text(Code::OK, &rev.to_json()).with_header("ETag", &tag)
            }
            None => Answer::status(Code::NOT_FOUND),
        }
    }
}
