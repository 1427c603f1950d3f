//! Bulk import endpoint for an edge appliance; state lives in jammdb.
use jammdb::{Error as DbError, DB};

use crate::auth::AuthCtx;

#[derive(Debug)]
pub enum Error {
    MissingKey,
    Db(DbError),
    Import(crate::import::ImportError),
}

impl From<DbError> for Error {
    fn from(e: DbError) -> Self {
        Error::Db(e)
    }
}

pub fn handle_import(db: &DB, head: &http::request::Parts, ctx: &AuthCtx, body: &[u8]) -> Result<Vec<u8>, Error> {
    let Some(key) = head.headers.get("Idempotency-Key").map(|v| v.as_bytes().to_vec()) else {
        return Err(Error::MissingKey);
    };
    let op: &[u8] = b"import";

    let mut k = Vec::with_capacity(64);
    k.extend_from_slice(ctx.workspace_id.as_bytes());
    k.push(0);
    k.extend_from_slice(ctx.user_id.as_bytes());
    k.push(0);
    k.extend_from_slice(op);
    k.push(0);
    k.extend_from_slice(&key);

    let tx = db.tx(true)?;
    let bucket = tx.get_or_create_bucket("idempotency")?;
    if let Some(data) = bucket.get(&k) {
        return Ok(data.kv().value().to_vec());
    }
    let out = crate::import::run(&ctx.workspace_id, body).map_err(Error::Import)?;
    bucket.put(k, out.clone())?;
    tx.commit()?;
    Ok(out)
}

pub fn store_blob(db: &DB, ctx: &AuthCtx, blob: &[u8]) -> Result<[u8; 32], Error> {
    let digest: [u8; 32] = blake3::hash(blob).into();
    let mut k = Vec::with_capacity(40);
    k.extend_from_slice(b"blob/");
    k.extend_from_slice(&digest);
    let tx = db.tx(true)?;
    let bucket = tx.get_or_create_bucket("blobs")?;
    bucket.put(k, blob.to_vec())?;
    tx.commit()?;
    tracing::debug!(workspace = %ctx.workspace_id, "blob stored");
    Ok(digest)
}
