use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::notes::{NoteDraft, Notebook};

/// Runs behind the SSO proxy, which forwards the signed-in user and the
/// tenant host.
pub struct NotesApi {
    stash: Arc<Stash>,
    notebook: Arc<Notebook>,
}

fn tenant_from_host(host: &str) -> Option<&str> {
    host.strip_suffix(".notes.example.com").filter(|t| !t.is_empty() && !t.contains('.'))
}

impl NotesApi {
    pub async fn create(&self, call: Call) -> Answer {
        let Some(tenant_id) = call.header("Host").and_then(tenant_from_host) else {
            return Answer::status(Code::NOT_FOUND);
        };
        let user_id = call.header("X-Forwarded-User").unwrap_or("");
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(tenant_id, user_id, "note_create", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(draft) = call.json::<NoteDraft>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let page_size = call.query("preview_lines").and_then(|v| v.parse::<usize>().ok()).unwrap_or_default();
        match self.notebook.create(tenant_id, user_id, draft, page_size).await {
            Ok(note) => {
                let body = note.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }
}
