use futures::future::{self, Ready};
use heed::types::{Bytes, Str};
use heed::{Database, Env};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tarpc::context::Context;

#[derive(Serialize, Deserialize, Debug)]
pub struct NewNote {
    pub title: String,
    pub body: String,
    pub page_size: Option<u32>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct NoteRef {
    pub id: String,
}

#[derive(Serialize, Deserialize, Debug, Default)]
pub struct CallerMeta {
    pub tenant_id: Option<String>,
    pub user_id: String,
    /// Copied from the HTTP gateway's Idempotency-Key header.
    pub idempotency_key: String,
}

#[tarpc::service]
pub trait Notes {
    async fn create(meta: CallerMeta, note: NewNote) -> Result<NoteRef, String>;
}

#[derive(Clone)]
pub struct NotesServer {
    env: Arc<Env>,
    replies: Database<Str, Bytes>,
}

impl Notes for NotesServer {
    type CreateFut = Ready<Result<NoteRef, String>>;

    fn create(self, _: Context, meta: CallerMeta, note: NewNote) -> Self::CreateFut {
        let limit = note.page_size.unwrap_or_default().max(10);
        let tenant = meta.tenant_id.clone().unwrap_or_default();
        let run = || -> Result<NoteRef, String> {
            let key = scoped(&tenant, &meta.user_id, "notes.create", &meta.idempotency_key).map_err(|e| e.to_string())?;
            let r = self.env.read_txn().map_err(|e| e.to_string())?;
            if let Some(b) = self.replies.get(&r, key.storage_key()).map_err(|e| e.to_string())? {
                return serde_json::from_slice(b).map_err(|e| e.to_string());
            }
            drop(r);
            let out = NoteRef { id: format!("{}-{}", note.title.len(), limit) };
            let mut w = self.env.write_txn().map_err(|e| e.to_string())?;
            let bytes = serde_json::to_vec(&out).map_err(|e| e.to_string())?;
            self.replies.put(&mut w, key.storage_key(), &bytes).map_err(|e| e.to_string())?;
            w.commit().map_err(|e| e.to_string())?;
            Ok(out)
        };
        future::ready(run())
    }
}
