use std::sync::Arc;

use gatehouse::http::{Request, Response, StatusCode};
use gatehouse::Auth;
use ledgerkit::bytes::ByteStore;
use sha2::{Digest, Sha256};

#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    body_sha256: [u8; 32],
    status: u16,
    reply: Vec<u8>,
}

pub struct Contracts {
    store: Arc<ByteStore>,
    engine: Arc<contracts::Engine>,
}

impl Contracts {
    pub async fn sign(&self, auth: &Auth, req: Request) -> anyhow::Result<Response> {
        let Some(idem) = req.header_str("Idempotency-Key").map(str::to_owned) else {
            return Ok(Response::status(StatusCode::BAD_REQUEST));
        };
        let route = "contracts.sign";
        let body = req.body_bytes().await?;
        let body_sha256: [u8; 32] = Sha256::digest(&body).into();

        let mut key = Vec::with_capacity(96);
        key.extend_from_slice(b"v1\0");
        key.extend_from_slice(auth.tenant_id.as_bytes());
        key.push(0);
        key.extend_from_slice(auth.principal_id.as_bytes());
        key.push(0);
        key.extend_from_slice(route.as_bytes());
        key.push(0);
        key.extend_from_slice(idem.as_bytes());

        if let Some(raw) = self.store.get(&key).await? {
            let saved: Saved = postcard::from_bytes(&raw)?;
            if saved.body_sha256 != body_sha256 {
                return Ok(Response::status(StatusCode::UNPROCESSABLE_ENTITY));
            }
            return Ok(Response::bytes(StatusCode::from_u16(saved.status)?, saved.reply).header("Idempotent-Replayed", "true"));
        }

        let signed = self.engine.sign(&auth.tenant_id, &body).await?;
        let etag = format!("\"{}\"", hex::encode(Sha256::digest(&signed)));
        let saved = Saved { body_sha256, status: 201, reply: signed.clone() };
        self.store.put(&key, postcard::to_allocvec(&saved)?).await?;
        Ok(Response::bytes(StatusCode::CREATED, signed).header("ETag", &etag).header("Idempotency-Key", &idem))
    }
}
