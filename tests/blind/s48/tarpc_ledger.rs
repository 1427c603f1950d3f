use futures::future::{self, Ready};
use polodb_core::bson::doc;
use polodb_core::{Collection, Database};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tarpc::context;

#[derive(Debug, Serialize, Deserialize)]
pub struct PostEntry {
    /// The client's idempotency key, copied from its `Idempotency-Key` header.
    pub idempotency_key: String,
    pub account: String,
    pub delta: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Posted {
    pub entry_id: String,
}

#[tarpc::service]
pub trait LedgerService {
    async fn post_entry(tenant: String, principal: String, req: PostEntry) -> Result<Posted, String>;
}

#[derive(Clone)]
pub struct LedgerServer {
    db: Arc<Database>,
}

#[derive(Serialize, Deserialize)]
struct StoredReply {
    _id: String,
    reply: Posted,
}

impl LedgerServer {
    fn replies(&self) -> Collection<StoredReply> {
        self.db.collection("ledger_replies")
    }

    fn remember(&self, slot: String, reply: &Posted) -> Result<(), String> {
        self.replies()
            .insert_one(StoredReply { _id: slot, reply: reply.clone() })
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

impl LedgerService for LedgerServer {
    type PostEntryFut = Ready<Result<Posted, String>>;

    fn post_entry(self, _: context::Context, tenant: String, principal: String, req: PostEntry) -> Self::PostEntryFut {
        let op = "ledger.post";
        let key = tenant.clone() + ":" + &principal + ":" + op + ":" + &req.idempotency_key;
        let existing = self.replies().find_one(doc! { "_id": &key }).map_err(|e| e.to_string());
        let out = match existing {
            Ok(Some(stored)) => Ok(stored.reply),
            Ok(None) => {
                let posted = Posted { entry_id: format!("{}-{}", req.account, req.delta) };
                self.remember(key, &posted).map(|_| posted)
            }
            Err(e) => Err(e),
        };
        future::ready(out)
    }
}
