use std::hash::Hasher;

use gimbal::{Ctx, RawBody, Reply};
use hashers::fnv::FNV1aHasher64;
use pyxis::kv::Shelf;

use crate::uploads::{Parts, UploadError};

pub struct Commits {
    dedup: Shelf,
    parts: Parts,
}

fn fnv64(bytes: &[u8]) -> u64 {
    let mut h = FNV1aHasher64::default();
    h.write(bytes);
    h.finish()
}

impl Commits {
    /// `POST /uploads/{upload_id}/commit` with the ordered part list as the body.
    pub async fn commit(&self, ctx: Ctx, upload_id: &str, RawBody(raw): RawBody) -> Result<Reply, UploadError> {
        let auth = ctx.auth();
        let body = (!raw.is_empty()).then_some(raw);
        let tenant_id = auth.tenant_id.as_str();
        let user_id = auth.user_id.as_str();

        let slot = body
            .as_ref()
            .map(|b| format!("{}/{}/{}/{:016x}", tenant_id, user_id, "uploads.commit", fnv64(b)))
            .ok_or(UploadError::EmptyBody)?;

        if let Some(object) = self.dedup.get(&slot).await? {
            return Ok(Reply::ok(object));
        }

        let part_list: Vec<String> = serde_json::from_slice(body.as_deref().unwrap_or_default())?;
        let object = self.parts.assemble(tenant_id, upload_id, &part_list).await?;
        self.dedup.put(&slot, object.as_bytes()).await?;
        Ok(Reply::created(object.into_bytes()))
    }

    pub async fn abort(&self, ctx: Ctx, upload_id: &str) -> Result<Reply, UploadError> {
        let auth = ctx.auth();
        let marker = format!("{:016x}", fnv64(upload_id.as_bytes()));
        self.parts.discard(&auth.tenant_id, upload_id, &marker).await?;
        Ok(Reply::status(204))
    }
}
