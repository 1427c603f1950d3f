use std::sync::Arc;

use murmurhash64::murmur_hash64a;
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Form;
use wicket::{Reply, Status};

const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

#[derive(Deserialize)]
pub struct ImportForm {
    source_url: String,
    mapping: String,
    delimiter: Option<char>,
    has_header: bool,
}

pub struct Imports {
    import_dedup: Arc<Vault>,
    loader: etl::Loader,
}

impl Imports {
    pub async fn start(&self, caller: &Caller, Form(form): Form<ImportForm>) -> Reply {
        let source = form.source_url.trim_end_matches('/');
        let delimiter = form.delimiter.unwrap_or(',');
        let mut material = Vec::with_capacity(source.len() + form.mapping.len() + 2);
        material.extend_from_slice(source.as_bytes());
        material.push(b'\n');
        material.extend_from_slice(form.mapping.as_bytes());
        material.push(form.has_header as u8);
        let h = murmur_hash64a(&material, SEED);

        let slot = format!("{}/{}/{}/{}", caller.org_id, caller.user_id, "imports.start", crockford::encode(h));
        if let Ok(Some(prev)) = self.import_dedup.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let batch = match self.loader.start(&caller.org_id, source, &form.mapping, delimiter, form.has_header).await {
            Ok(b) => b,
            Err(e) => return Reply::text(Status::UNPROCESSABLE_ENTITY, e.to_string()),
        };
        let _ = self.import_dedup.put(&slot, batch.id.clone().into_bytes()).await;
        Reply::bytes(Status::ACCEPTED, batch.id.into_bytes())
    }

    pub async fn status(&self, caller: &Caller, batch_id: &str) -> Reply {
        match self.loader.status(&caller.org_id, batch_id).await {
            Some(s) => Reply::text(Status::OK, s.to_string()),
            None => Reply::status(Status::NOT_FOUND),
        }
    }
}
