//! Build artifact cache for the CI runner: content-addressed via cacache.
use std::path::PathBuf;

use sha2::{Digest, Sha256};

pub struct ArtifactCache {
    dir: PathBuf,
}

impl ArtifactCache {
    pub async fn put_artifact(&self, project_id: &str, bytes: &[u8]) -> Result<String, cacache::Error> {
        let digest = hex::encode(Sha256::digest(bytes));
        let key = format!("{project_id}/{digest}");
        cacache::write(&self.dir, &key, bytes).await?;
        Ok(digest)
    }

    pub async fn get_artifact(&self, project_id: &str, digest: &str) -> Result<Vec<u8>, cacache::Error> {
        let key = format!("{project_id}/{digest}");
        cacache::read(&self.dir, &key).await
    }

    pub async fn put_log(&self, job_id: &str, log: &[u8]) -> Result<(), cacache::Error> {
        let sum = blake3::hash(log);
        let key = format!("logs/{job_id}/{}", sum.to_hex());
        cacache::write(&self.dir, &key, log).await?;
        Ok(())
    }
}

impl ArtifactCache {
    pub async fn evict(&self, project_id: &str, digest: &str) -> Result<(), cacache::Error> {
        cacache::remove(&self.dir, &format!("{project_id}/{digest}")).await
    }
}
