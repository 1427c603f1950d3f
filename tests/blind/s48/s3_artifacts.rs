use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::Client;
use crate::locks::BuildLocks;
use sha1::{Digest, Sha1};

pub struct Artifact {
    pub name: String,
    pub contents: Vec<u8>,
}

pub async fn publish(s3: &Client, locks: &BuildLocks, bucket: &str, build_id: &str, artifacts: Vec<Artifact>) -> anyhow::Result<Vec<String>> {
    let lease = locks.try_acquire(build_id).await?;
    let mut keys = Vec::new();
    for a in artifacts {
        let digest = Sha1::digest(&a.contents);
        let hex: String = digest.iter().map(|b| format!("{:02x}", b)).collect();
        let object_key = format!("cas/{}/{}", &hex[..2], hex);
        let put = s3
            .put_object()
            .bucket(bucket)
            .key(&object_key)
            .if_none_match("*")
            .body(ByteStream::from(a.contents))
            .send()
            .await;
        if let Err(e) = put {
            if !e.to_string().contains("PreconditionFailed") {
                anyhow::bail!("upload of {} failed: {}", a.name, e);
            }
        }
        keys.push(object_key);
    }
    locks.finish(lease).await?;
    Ok(keys)
}
