use std::sync::Arc;

use actix_multipart::form::{tempfile::TempFile, text::Text, MultipartForm};
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use k12::digest::{ExtendableOutput, Update};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::blobs::BlobBucket;
use crate::docs::{DocMeta, DocIndex};
use crate::sessions::SessionCache;

#[derive(MultipartForm)]
pub struct DocUpload {
    pub file: TempFile,
    pub shipment_ref: Text<String>,
}

#[derive(Clone)]
pub struct Vault {
    pub bucket: Arc<BlobBucket>,
    pub index: Arc<DocIndex>,
    pub sessions: Arc<SessionCache>,
}

fn key_digest(api_key: &str) -> String {
    let mut h = k12::KangarooTwelve::default();
    h.update(api_key.as_bytes());
    hex::encode(h.finalize_boxed(32))
}

fn normalise_mac(raw: &str) -> String {
    raw.replace(':', "").to_ascii_uppercase()
}

#[post("/v1/documents")]
pub async fn upload(req: HttpRequest, vault: web::Data<Vault>, MultipartForm(form): MultipartForm<DocUpload>) -> actix_web::Result<HttpResponse> {
    let api_key = req.headers().get("X-Api-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| actix_web::error::ErrorUnauthorized("api key"))?;
    let owner = vault.sessions.get(&key_digest(api_key)).await.ok_or_else(|| actix_web::error::ErrorUnauthorized("unknown key"))?;
    let device = req.headers().get("X-Scanner-Mac").and_then(|v| v.to_str().ok()).map(normalise_mac);

    let bytes = std::fs::read(form.file.file.path())?;
    let digest = hex::encode(Sha256::digest(&bytes));
    let safe_name = form.file.file_name.as_deref().unwrap_or("upload.bin").replace('/', "_");
    let object_path = format!("docs/{}/{}/{}", owner.org_id, digest, safe_name);
    vault.bucket.put(&object_path, bytes).await?;

    let doc_id = Uuid::new_v4();
    let meta = DocMeta { doc_id, org_id: owner.org_id.clone(), shipment_ref: form.shipment_ref.0.clone(), object_path, device };
    vault.index.insert(doc_id, &meta).await?;
    Ok(HttpResponse::Created().json(meta))
}

#[get("/v1/documents/{doc_id}")]
pub async fn fetch(req: HttpRequest, path: web::Path<Uuid>, vault: web::Data<Vault>) -> actix_web::Result<HttpResponse> {
    let token = req.cookie("vault_session").map(|c| c.value().to_owned()).ok_or_else(|| actix_web::error::ErrorUnauthorized("no session"))?;
    let session = vault.sessions.get(&token).await.ok_or_else(|| actix_web::error::ErrorUnauthorized("expired"))?;
    let meta = vault.index.get(*path).await?.filter(|m| m.org_id == session.org_id).ok_or_else(|| actix_web::error::ErrorNotFound("no such document"))?;

    let body = vault.bucket.get(&meta.object_path).await?;
    let etag = format!("\"{:x}\"", Sha256::digest(&body));
    if req.headers().get("If-None-Match").and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        return Ok(HttpResponse::NotModified().finish());
    }
    let profile_key = format!("user:{}:profile", session.user_id);
    let _ = vault.sessions.touch(&profile_key).await;
    Ok(HttpResponse::Ok().insert_header(("ETag", etag)).body(body))
}
