use actix_multipart::Multipart;
use actix_web::{post, web, HttpResponse};
use futures_util::TryStreamExt;
use idem_scope::{scoped, Problem};
use sha2::{Digest, Sha256};

use crate::auth::Claims;
use crate::manifests::{ManifestImporter, ImportSummary};
use crate::replay::ImportReplays;

const MAX_MANIFEST_BYTES: usize = 8 * 1024 * 1024;

async fn read_manifest(mut payload: Multipart) -> actix_web::Result<(String, Vec<u8>)> {
    let mut name = String::from("manifest.csv");
    let mut data = Vec::new();
    while let Some(mut field) = payload.try_next().await? {
        if field.name() != Some("manifest") {
            continue;
        }
        if let Some(f) = field.content_disposition().and_then(|cd| cd.get_filename()) {
            name = f.replace('/', "_");
        }
        while let Some(chunk) = field.try_next().await? {
            if data.len() + chunk.len() > MAX_MANIFEST_BYTES {
                return Err(actix_web::error::ErrorPayloadTooLarge("manifest too large"));
            }
            data.extend_from_slice(&chunk);
        }
    }
    Ok((name, data))
}

#[post("/v1/manifests/import")]
pub async fn import_manifest(
    claims: Claims,
    payload: Multipart,
    replays: web::Data<ImportReplays>,
    importer: web::Data<ManifestImporter>,
) -> actix_web::Result<HttpResponse> {
    let (file_name, data) = read_manifest(payload).await?;
    let upload_sha = format!("{:x}", Sha256::digest(&data));
    let replay_key = scoped(&claims.tenant_id, &claims.sub, "manifests.import", &upload_sha)
        .map_err(|e| actix_web::error::ErrorBadRequest(Problem::invalid_key(&e.to_string()).to_json()))?;

    if let Some(summary) = replays.load::<ImportSummary>(&replay_key).await? {
        return Ok(HttpResponse::Ok().insert_header(("Idempotent-Replayed", "true")).json(summary));
    }
    let summary = importer.import(&claims.tenant_id, &file_name, &data).await?;
    replays.save(&replay_key, &summary).await?;
    Ok(HttpResponse::Created().json(summary))
}
