//! Manifest uploads for customs brokers. Bodies are streamed in chunks.

use blake_hash::{Blake256, Digest};
use granary::crib::Crib;
use portcullis::take::Raw;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

pub async fn upload(crib: &Crib, call: Call, member: Member) -> Reply {
    let Ok(Raw(mut stream)) = call.take::<Raw>() else { return Reply::status(Status::BadRequest) };
    let mut hasher = Blake256::new();
    let mut body = Vec::new();
    while let Some(chunk) = stream.next_chunk().await {
        hasher.update(&chunk);
        body.extend_from_slice(&chunk);
    }
    let digest_hex: String = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    if let Ok(Some(prev)) = crib.get(&member.org_id, &member.user_id, "manifest.upload", &digest_hex).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let receipt = crate::customs::file_manifest(&body).await;
    let _ = crib.put(&member.org_id, &member.user_id, "manifest.upload", &digest_hex, receipt.clone()).await;
    let _ = crib.put_fingerprint(&member.org_id, "manifests", "last", &digest_hex).await;
    let etag = format!("\"{digest_hex}\"");
    Reply::bytes(Status::Created, receipt).with_header("etag", &etag)
}
