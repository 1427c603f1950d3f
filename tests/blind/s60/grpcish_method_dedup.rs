use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderMap, Request, Response, StatusCode};
use idem_scope::{scoped, Fingerprint};
use tokio::sync::RwLock;

use crate::rpc::{Dispatcher, RpcError};

#[derive(Clone)]
struct Stored {
    fingerprint: Fingerprint,
    body: Bytes,
}

#[derive(Clone)]
pub struct RpcGateway {
    dispatcher: Arc<Dispatcher>,
    replies: Arc<RwLock<HashMap<String, Stored>>>,
}

fn meta<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name)?.to_str().ok()
}

impl RpcGateway {
    /// Unary calls arrive as `POST /rpc/{service}:{Method}` with a protobuf body.
    pub async fn unary(&self, req: Request<Bytes>) -> Result<Response<Bytes>, RpcError> {
        let (parts, body) = req.into_parts();
        let op_name = parts.uri.path().trim_start_matches("/rpc/").to_owned();
        let tenant_id = meta(&parts.headers, "x-tenant-id").ok_or(RpcError::Unauthenticated)?;
        let caller_id = meta(&parts.headers, "x-caller-id").ok_or(RpcError::Unauthenticated)?;

        let Some(k) = meta(&parts.headers, "idempotency-key") else {
            let out = self.dispatcher.call(&op_name, tenant_id, caller_id, body).await?;
            return Ok(Response::new(out));
        };

        let route = op_name.replace(':', ".");
        let key = scoped(tenant_id, caller_id, &route, k)?;
        let fingerprint = Fingerprint::of(&route, &body);

        if let Some(stored) = self.replies.read().await.get(key.storage_key()).cloned() {
            if stored.fingerprint.as_bytes() != fingerprint.as_bytes() {
                return Ok(Response::builder()
                    .status(StatusCode::UNPROCESSABLE_ENTITY)
                    .body(Bytes::from_static(b"key reused with another payload"))?);
            }
            return Ok(Response::new(stored.body));
        }

        let out = self.dispatcher.call(&op_name, tenant_id, caller_id, body).await?;
        self.replies
            .write()
            .await
            .insert(key.storage_key().to_owned(), Stored { fingerprint, body: out.clone() });
        Ok(Response::new(out))
    }
}
