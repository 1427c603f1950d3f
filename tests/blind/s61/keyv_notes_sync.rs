use idem_scope::{scoped, Problem};
use keyv::Keyv;
use serde::{Deserialize, Serialize};
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

const SHARED_WORKSPACE: &str = "shared";

#[derive(Deserialize, Serialize)]
struct Note {
    title: String,
    body: String,
}

#[derive(Serialize)]
struct SyncResult {
    stored: usize,
    page_size: usize,
}

pub struct NotesSync {
    kv: Keyv,
}

impl NotesSync {
    pub async fn sync(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let workspace_id = if let Some(ws) = req.header("x-workspace-id") {
            ws.to_owned()
        } else {
            SHARED_WORKSPACE.to_owned()
        };
        let page_size: usize = req.query("limit").and_then(|v| v.parse().ok()).unwrap_or(100);
        let client_key = req
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;

        let key = scoped(&workspace_id, &caller.user_id, "notes.sync", client_key)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        if let Some(prev) = self.kv.get(key.storage_key()).await.map_err(Reply::internal)? {
            return Ok(Reply::json(200, &prev));
        }

        let mut notes: Vec<Note> = req.json()?;
        for n in notes.iter_mut() {
            n.title = n.title.replace('#', "").trim().to_owned();
        }
        let result = SyncResult { stored: notes.len().min(page_size), page_size };
        self.kv
            .set(key.storage_key(), serde_json::to_value(&result).map_err(Reply::internal)?)
            .await
            .map_err(Reply::internal)?;
        Ok(Reply::json(201, &result))
    }
}
