use google_cloud_storage::client::Client;
use google_cloud_storage::http::objects::upload::{Media, UploadObjectRequest, UploadType};
use sha1collisiondetection::{Digest, Sha1CD};
use wherry::auth::Caller;
use wherry::extract::{Body, State};
use wherry::{Reply, Status};

#[derive(Clone)]
pub struct Artifacts {
    pub gcs: Client,
    pub bucket: String,
}

/// Build artifacts are content-addressed: identical uploads land on one object.
pub async fn upload_artifact(caller: Caller, State(a): State<Artifacts>, Body(bytes): Body) -> Reply {
    let digest = Sha1CD::digest(&bytes);
    let hex: String = digest.iter().map(|b| format!("{:02x}", b)).collect();
    let object_name = format!("artifacts/{}/{}/{}", caller.project_id, &hex[..2], hex);

    let req = UploadObjectRequest {
        bucket: a.bucket.clone(),
        if_generation_match: Some(0),
        ..Default::default()
    };
    let mut media = Media::new(object_name.clone());
    media.content_type = "application/octet-stream".into();
    match a.gcs.upload_object(&req, bytes, &UploadType::Simple(media)).await {
        Ok(obj) => Reply::json(Status::CREATED, &serde_json::json!({ "object": obj.name, "sha1": hex })),
        Err(e) if e.to_string().contains("412") => {
            Reply::json(Status::OK, &serde_json::json!({ "object": object_name, "sha1": hex, "existing": true }))
        }
        Err(e) => {
            tracing::error!(error = %e, project = %caller.project_id, "artifact upload failed");
            Reply::status(Status::BAD_GATEWAY)
        }
    }
}

/// Streams an artifact back; the caller names it by its content hash.
pub async fn download_artifact(caller: Caller, State(a): State<Artifacts>, sha1: String) -> Reply {
    if sha1.len() != 40 || !sha1.chars().all(|c| c.is_ascii_hexdigit()) {
        return Reply::status(Status::BAD_REQUEST);
    }
    let object_name = format!("artifacts/{}/{}/{}", caller.project_id, &sha1[..2], sha1);
    let req = google_cloud_storage::http::objects::get::GetObjectRequest {
        bucket: a.bucket.clone(),
        object: object_name,
        ..Default::default()
    };
    match a.gcs.download_object(&req, &google_cloud_storage::http::objects::download::Range::default()).await {
        Ok(bytes) => Reply::bytes(Status::OK, bytes).header("Content-Type", "application/octet-stream"),
        Err(_) => Reply::status(Status::NOT_FOUND),
    }
}
