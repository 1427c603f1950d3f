use std::sync::Arc;

use bytes::Bytes;
use dashmap::DashMap;
use idem_scope::{scoped, Problem};
use orion::hazardous::mac::hmac::sha256::{HmacSha256, SecretKey, Tag};
use silent::prelude::*;

/// Deliveries and client dispatches that were already acted on.
#[derive(Clone)]
pub struct Handled {
    seen: Arc<DashMap<String, Bytes>>,
    secret: Arc<SecretKey>,
    ci: crate::ci::Client,
}

fn header(req: &Request, name: &str) -> Option<String> {
    req.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

impl Handled {
    /// POST /v1/dispatches — a user asks CI to run a workflow.
    pub async fn dispatch(&self, mut req: Request) -> Result<Response> {
        let caller = crate::auth::caller(&req)?;
        let key = header(&req, "Idempotency-Key")
            .ok_or_else(|| SilentError::business_error(StatusCode::BAD_REQUEST, Problem::missing_key().to_json()))?;
        let sk = scoped(&caller.org_id, &caller.user_id, "dispatches.create", &key)
            .map_err(|e| SilentError::business_error(StatusCode::BAD_REQUEST, e.to_string()))?;
        let body: crate::ci::Dispatch = req.json_parse().await?;
        let run = self.ci.dispatch(&caller.org_id, &body).await?;
        let out = Bytes::from(serde_json::to_vec(&run)?);
        if let Some(first) = self.seen.insert(sk.storage_key().to_owned(), out.clone()) {
            return Ok(Response::json_bytes(first));
        }
        Ok(Response::json_bytes(out))
    }

    /// POST /hooks/github
    pub async fn github(&self, mut req: Request) -> Result<Response> {
        let delivery = header(&req, "X-GitHub-Delivery")
            .ok_or_else(|| SilentError::business_error(StatusCode::BAD_REQUEST, "no delivery id".into()))?;
        let signature = header(&req, "X-Hub-Signature-256").unwrap_or_default();
        let raw = req.take_body_bytes().await?;

        let expected = faster_hex::hex_decode_to_vec(signature.trim_start_matches("sha256="))
            .ok()
            .and_then(|b| Tag::from_slice(&b).ok());
        let Some(tag) = expected else {
            return Err(SilentError::business_error(StatusCode::UNAUTHORIZED, "bad signature".into()));
        };
        if HmacSha256::verify(&tag, &self.secret, &raw).is_err() {
            return Err(SilentError::business_error(StatusCode::UNAUTHORIZED, "bad signature".into()));
        }

        if self.seen.insert(delivery.clone(), Bytes::from_static(b"{}")).is_some() {
            return Ok(Response::empty(StatusCode::OK));
        }
        let event = header(&req, "X-GitHub-Event").unwrap_or_default();
        self.ci.on_github_event(&event, &raw).await?;
        Ok(Response::empty(StatusCode::ACCEPTED))
    }
}
