use std::path::{Path, PathBuf};

use bytes::Bytes;
use gimbal::{Ctx, Multipart, Reply};
use tokio::fs;

use crate::media::{MediaError, Thumbnailer};

pub struct MediaLibrary {
    root: PathBuf,
    thumbs: Thumbnailer,
}

fn content_address(bytes: &[u8]) -> Result<String, MediaError> {
    let digest = chksum_sha2_256::chksum(bytes)?;
    Ok(digest.to_hex_lowercase())
}

fn shard_path(root: &Path, address: &str) -> PathBuf {
    root.join(&address[..2]).join(&address[2..4]).join(address)
}

impl MediaLibrary {
    pub async fn upload(&self, ctx: Ctx, mut form: Multipart) -> Result<Reply, MediaError> {
        let auth = ctx.auth();
        let mut stored = Vec::new();
        while let Some(field) = form.next_field().await? {
            let content_type = field.content_type().unwrap_or("application/octet-stream").to_owned();
            let bytes: Bytes = field.bytes().await?;
            let address = content_address(&bytes)?;
            let path = shard_path(&self.root, &address);
            if fs::metadata(&path).await.is_err() {
                fs::create_dir_all(path.parent().expect("sharded path has a parent")).await?;
                fs::write(&path, &bytes).await?;
            }
            if content_type.starts_with("image/") {
                self.thumbs.enqueue(&auth.tenant_id, &address).await?;
            }
            stored.push(serde_json::json!({ "address": address, "content_type": content_type }));
        }
        Ok(Reply::created_json(&stored))
    }

    pub async fn fetch(&self, address: &str) -> Result<Reply, MediaError> {
        if address.len() != 64 || !address.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(Reply::status(404));
        }
        let bytes = fs::read(shard_path(&self.root, address)).await?;
        Ok(Reply::ok(bytes).with_header("Cache-Control", "public, max-age=31536000, immutable"))
    }
}
