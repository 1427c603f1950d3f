use async_trait::async_trait;
use bytes::Bytes;
use memcache::Client;
use pingora::http::RequestHeader;
use pingora::prelude::*;
use pingora::proxy::{ProxyHttp, Session};
use sha3::{Digest, Sha3_256};

pub struct DedupProxy {
    pub memc: Client,
    pub upstream: String,
}

#[derive(Default)]
pub struct DedupCtx {
    pub tenant: String,
    pub principal: String,
    pub client_key: Option<String>,
    pub body: Vec<u8>,
}

#[async_trait]
impl ProxyHttp for DedupProxy {
    type CTX = DedupCtx;

    fn new_ctx(&self) -> Self::CTX {
        DedupCtx::default()
    }

    async fn request_filter(&self, session: &mut Session, ctx: &mut Self::CTX) -> Result<bool> {
        let h = &session.req_header().headers;
        let tenant = h.get("x-tenant-id").and_then(|v| v.to_str().ok()).map(String::from);
        let principal = h.get("x-principal").and_then(|v| v.to_str().ok()).map(String::from);
        let (Some(tenant), Some(principal)) = (tenant, principal) else {
            session.respond_error(401).await?;
            return Ok(true);
        };
        ctx.tenant = tenant;
        ctx.principal = principal;
        ctx.client_key = h.get("idempotency-key").and_then(|v| v.to_str().ok()).map(String::from);
        Ok(false)
    }

    async fn request_body_filter(&self, _session: &mut Session, body: &mut Option<Bytes>, end_of_stream: bool, ctx: &mut Self::CTX) -> Result<()> {
        if let Some(chunk) = body {
            ctx.body.extend_from_slice(chunk);
        }
        if !end_of_stream || ctx.client_key.is_some() {
            return Ok(());
        }
        let digest = Sha3_256::digest(&ctx.body);
        let hex_digest = hex::encode(digest);
        let seen: Option<String> = self.memc.get(&format!("{}/{}/{}/{}", ctx.tenant, ctx.principal, "orders.submit", hex_digest)).unwrap_or(None);
        if seen.is_some() {
            return Err(Error::explain(ErrorType::HTTPStatus(409), "duplicate submission"));
        }
        Ok(())
    }

    async fn upstream_request_filter(&self, _session: &mut Session, upstream_request: &mut RequestHeader, ctx: &mut Self::CTX) -> Result<()> {
        if let Some(k) = ctx.client_key.as_deref() {
            upstream_request.insert_header("Idempotency-Key", k)?;
        }
        Ok(())
    }

    async fn upstream_peer(&self, _session: &mut Session, _ctx: &mut Self::CTX) -> Result<Box<HttpPeer>> {
        Ok(Box::new(HttpPeer::new(self.upstream.as_str(), true, "api.internal".into())))
    }
}
