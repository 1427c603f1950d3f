use std::sync::Arc;

use idem_scope::scoped;
use kestrel::extract::{Head, RawBody};
use kestrel::{Outcome, Status};
use symcrypt::hash::{HashState, Sha384State};
use tessera::kv::Kv;

use crate::crm::{ContactImporter, ImportSummary};

pub enum ImportMode {
    Merge,
    Replace,
}

pub struct ContactImport {
    kv: Arc<Kv>,
    importer: Arc<ContactImporter>,
}

impl ContactImport {
    pub async fn import(&self, head: Head, RawBody(body): RawBody) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let mode = match head.query("mode") {
            Some("replace") => ImportMode::Replace,
            _ => ImportMode::Merge,
        };
        let mut state = Sha384State::new();
        let mut rows = Vec::new();
        for line in body.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            state.append(line);
            rows.push(line.to_vec());
        }
        let mut out = [0u8; 48];
        state.result(&mut out);
        let batch_sig = base85::encode(&out);
        let operation = match mode {
            ImportMode::Merge => "contacts_merge",
            ImportMode::Replace => "contacts_replace",
        };
        let Ok(key) = scoped(&who.workspace_id, &who.user_id, operation, &batch_sig) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let summary: ImportSummary = self.importer.run(&who.workspace_id, rows).await;
        let bytes = kestrel::json::to_vec(&summary).unwrap_or_default();
        let mut etag_state = Sha384State::new();
        etag_state.append(&bytes);
        let mut etag = [0u8; 48];
        etag_state.result(&mut etag);
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        let location = format!("/v1/imports/{}", summary.import_id);
        Outcome::bytes(Status::CREATED, bytes).with_header("Location", &location).with_header("ETag", &base85::encode(&etag))
    }
}
