use fred::prelude::*;
use sha3::{Digest, Sha3_256};
use viz::{Request, RequestExt, Response, ResponseExt, Result, StatusCode};

#[derive(Clone)]
pub struct Blobs {
    pub index: RedisClient,
    pub root: std::path::PathBuf,
}

pub async fn upload_avatar(mut req: Request) -> Result<Response> {
    let blobs = req.state::<Blobs>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let owner: String = req.header("x-user-id").ok_or(StatusCode::UNAUTHORIZED)?;
    let bytes = req.bytes().await?;
    let content_hash = hex::encode(Sha3_256::digest(&bytes));
    let object_path = blobs.root.join(&content_hash[..2]).join(&content_hash);
    async_std::fs::write(&object_path, &bytes).await.map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
    let _: () = blobs.index.set(format!("blob:{}", content_hash), owner.as_str(), None, None, false).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(Response::text(content_hash))
}

pub async fn blob_owner(req: Request) -> Result<Response> {
    let blobs = req.state::<Blobs>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let hash: String = req.param("hash")?;
    let owner: Option<String> = blobs.index.get(format!("blob:{}", hash)).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    owner.map(Response::text).ok_or_else(|| StatusCode::NOT_FOUND.into_error())
}
