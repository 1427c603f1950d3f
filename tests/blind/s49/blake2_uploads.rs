//! Document upload intake: request metadata arrives as MessagePack (rmp-serde).
use blake2::{Blake2b512, Digest};
use smol_str::SmolStr;

#[derive(serde::Deserialize, serde::Serialize)]
pub struct UploadMeta {
    pub filename: SmolStr,
    pub mime: SmolStr,
    pub size: u64,
}

pub struct Uploads<S> {
    dedup: S,
}

impl<S: crate::kv::Kv> Uploads<S> {
    pub async fn register(&self, project_id: &str, principal_id: &str, req: &http::Request<Vec<u8>>) -> Result<String, crate::Error> {
        let meta: UploadMeta = rmp_serde::from_slice(req.body())?;
        let mut hasher = Blake2b512::new();
        hasher.update(rmp_serde::to_vec(&meta)?);
        let request_digest = hasher.finalize();
        let endpoint = "/v1/uploads";
        let key = [project_id, principal_id, endpoint, &hex::encode(&request_digest[..32])].join("\u{1e}");

        if let Some(id) = self.dedup.get(&key).await? {
            return Ok(id);
        }
        let id = crate::uploads::create(project_id, &meta).await?;
        self.dedup.set(&key, &id).await?;
        Ok(id)
    }
}
