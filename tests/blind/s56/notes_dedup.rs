use std::sync::Arc;

use bytes::Bytes;
use dashmap::DashMap;
use http::{HeaderMap, StatusCode};

type NoteSlot = (String, String, &'static str, String);

/// In-process replay table for the notes service; entries are evicted by the
/// janitor after a day.
#[derive(Clone, Default)]
pub struct NoteReplays {
    inner: Arc<DashMap<NoteSlot, (StatusCode, Bytes)>>,
}

fn strip_separators(s: &str) -> String {
    s.replace('\x1e', "")
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get(name)?.to_str().ok().map(str::to_owned)
}

pub struct NewNote {
    pub notebook_id: String,
    pub text: String,
}

impl NoteReplays {
    pub fn create_note(
        &self,
        headers: &HeaderMap,
        note: NewNote,
        notes: &crate::notes::Notes,
    ) -> (StatusCode, Bytes) {
        let (Some(tenant), Some(user_id)) = (header(headers, "x-tenant"), header(headers, "x-user-id")) else {
            return (StatusCode::UNAUTHORIZED, Bytes::new());
        };
        let Some(key) = header(headers, "Idempotency-Key") else {
            return (StatusCode::BAD_REQUEST, Bytes::from_static(b"Idempotency-Key required"));
        };
        if key.len() > 255 {
            return (StatusCode::BAD_REQUEST, Bytes::from_static(b"Idempotency-Key too long"));
        }

        let tenant = strip_separators(&tenant);
        let user_id = strip_separators(&user_id);
        let slot: NoteSlot = (tenant.clone(), user_id, "notes.create", key);
        if let Some(hit) = self.inner.get(&slot) {
            return hit.value().clone();
        }

        let created = notes.create(&tenant, &note.notebook_id, &note.text);
        let out = match created {
            Ok(n) => (StatusCode::CREATED, Bytes::from(serde_json::to_vec(&n).unwrap_or_default())),
            Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, Bytes::from(e.to_string())),
        };
        self.inner.insert(slot, out.clone());
        out
    }
}
