use std::sync::Arc;

use idem_scope::{scoped, Problem};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::notes::{Note, NoteStore};

pub const SHARED_WORKSPACE: &str = "shared";

pub struct NotesApi {
    kv: Arc<Kv>,
    notes: Arc<NoteStore>,
}

impl NotesApi {
    pub async fn create(&self, ex: &Exchange) -> Outcome {
        let Some(user_id) = ex.identity().map(|i| i.user_id.clone()) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let workspace_id = if let Some(ws) = ex.path_param("workspace") {
            ws.to_owned()
        } else {
            SHARED_WORKSPACE.to_owned()
        };
        let Some(retry) = ex.header("Idempotency-Key") else {
            return Outcome::problem(Problem::missing_key());
        };
        let key = match scoped(&workspace_id, &user_id, "create_note", retry) {
            Ok(k) => k,
            Err(e) => return Outcome::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let title = ex.query("title").unwrap_or("Untitled").replace(['#', '|'], "");
        let note: Note = self.notes.create(&workspace_id, &user_id, &title, ex.body()).await;
        let bytes = kestrel::json::to_vec(&note).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
