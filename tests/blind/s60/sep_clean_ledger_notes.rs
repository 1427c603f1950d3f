use gimbal::{Ctx, Json, Reply};
use idem_scope::{scoped, Problem, ScopeError};
use pyxis::kv::Shelf;
use serde::Deserialize;
use tracing::debug;

use crate::notes::{NoteError, Notes};

#[derive(Deserialize)]
pub struct NewNote {
    pub entry_id: String,
    pub text: String,
}

pub struct LedgerNotes {
    replays: Shelf,
    notes: Notes,
}

fn clean(component: &str) -> String {
    component.replace('\u{1e}', " ")
}

impl LedgerNotes {
    pub async fn add(&self, ctx: Ctx, Json(note): Json<NewNote>) -> Result<Reply, NoteError> {
        let auth = ctx.auth();
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let tenant_id = clean(&auth.tenant_id);
        let user_id = clean(&auth.user_id);

        let key = match scoped(&tenant_id, &user_id, "ledger.notes.add", k) {
            Ok(key) => key,
            Err(ScopeError::ContainsSeparator(component)) => {
                return Ok(Reply::problem(Problem::invalid_key(&format!("{component:?} contains a separator"))));
            }
            Err(e) => return Ok(Reply::problem(Problem::invalid_key(&e.to_string()))),
        };
        debug!(storage_key = %key.storage_key().replace('\0', "."), "note key");

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let stored = self.notes.add(&auth.tenant_id, &note.entry_id, note.text.trim()).await?;
        self.replays.put(key.storage_key(), &stored.to_json()).await?;
        Ok(Reply::created(stored.to_json()))
    }
}
