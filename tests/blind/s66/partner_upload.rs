use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::blob::BlobStore;
use skerry::stash::Stash;

use crate::partners::{Manifest, PartnerDirectory};

pub struct PartnerUploads {
    stash: Arc<Stash>,
    blobs: Arc<BlobStore>,
    directory: Arc<PartnerDirectory>,
}

fn safe_file_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect()
}

impl PartnerUploads {
    pub async fn upload(&self, call: Call) -> Answer {
        let Some(partner) = self.directory.authenticate(call.header("X-Partner-Token")).await else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        // Org ids from the old directory look like "acme:eu"; keep them readable.
        let org_id = partner.org_id.replace(':', "-");
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(&org_id, &partner.api_key_id, "manifest_upload", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }

        let Ok(manifest) = call.json::<Manifest>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let file_name = safe_file_name(&manifest.file_name);
        let object = format!("partners/{}/{}", org_id, file_name.replace('/', "_"));
        if let Err(e) = self.blobs.put(&object, &manifest.content).await {
            return Answer::text(Code::BAD_GATEWAY, &e.to_string());
        }
        let body = format!("{{\"object\":\"{object}\"}}").into_bytes();
        let _ = self.stash.put(slot.storage_key(), &body).await;
        Answer::bytes(Code::CREATED, body)
    }
}
