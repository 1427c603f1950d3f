use dropshot::{endpoint, HttpError, HttpResponseCreated, RequestContext, UntypedBody};
use gatehouse::dropshot::Claims;
use opendal::Operator;
use serde::Serialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

pub struct BlobCtx {
    pub op: Operator,
    pub index: blobindex::Index,
}

#[derive(Serialize)]
pub struct StoredBlob {
    pub upload_id: Uuid,
    pub sha256: String,
    pub path: String,
    pub size: usize,
    pub file_name: String,
}

fn display_name(raw: Option<&str>) -> String {
    raw.map(|n| n.chars().filter(|c| !matches!(c, '/' | '\\' | ':' | '\0')).collect::<String>())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "attachment.bin".to_owned())
}

#[endpoint { method = PUT, path = "/v1/attachments" }]
pub async fn put_attachment(
    rqctx: RequestContext<BlobCtx>,
    claims: Claims,
    body: UntypedBody,
) -> Result<HttpResponseCreated<StoredBlob>, HttpError> {
    let ctx = rqctx.context();
    let bytes = body.as_bytes();
    let sha256 = hex::encode(Sha256::digest(bytes));
    let path = format!("blobs/{}/{}/{}", claims.tenant_id, &sha256[..2], sha256);

    if !ctx.op.exists(&path).await.map_err(|e| HttpError::for_internal_error(e.to_string()))? {
        ctx.op
            .write(&path, bytes.to_vec())
            .await
            .map_err(|e| HttpError::for_internal_error(e.to_string()))?;
    }

    let file_name = display_name(rqctx.request.headers().get("x-file-name").and_then(|v| v.to_str().ok()));
    let blob = StoredBlob { upload_id: Uuid::new_v4(), sha256: sha256.clone(), path: path.clone(), size: bytes.len(), file_name };
    ctx.index
        .insert(&claims.tenant_id, blob.upload_id, &blob.path)
        .await
        .map_err(|e| HttpError::for_internal_error(e.to_string()))?;
    Ok(HttpResponseCreated(blob))
}
