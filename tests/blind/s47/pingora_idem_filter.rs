use async_trait::async_trait;
use pingora::http::ResponseHeader;
use pingora::prelude::*;
use pingora::proxy::{ProxyHttp, Session};
use tikv_client::RawClient;

pub struct IdemGate {
    pub store: RawClient,
    pub upstream: String,
}

#[derive(Default)]
pub struct GateCtx {
    pub key: Option<Vec<u8>>,
}

fn read(session: &Session, name: &str) -> Option<String> {
    session
        .req_header()
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.to_owned())
}

#[async_trait]
impl ProxyHttp for IdemGate {
    type CTX = GateCtx;

    fn new_ctx(&self) -> Self::CTX {
        GateCtx::default()
    }

    async fn request_filter(&self, session: &mut Session, ctx: &mut Self::CTX) -> Result<bool> {
        let Some(client_key) = read(session, "Idempotency-Key") else {
            return Ok(false);
        };
        let (Some(tenant), Some(caller)) = (read(session, "x-tenant-id"), read(session, "x-api-key-id")) else {
            session.respond_error(401).await?;
            return Ok(true);
        };
        let method = session.req_header().method.as_str().to_owned();
        let path = session.req_header().uri.path().to_owned();

        let mut buf: Vec<u8> = Vec::with_capacity(256);
        buf.extend_from_slice(tenant.as_bytes());
        buf.push(0);
        buf.extend_from_slice(caller.as_bytes());
        buf.push(0);
        buf.extend_from_slice(method.as_bytes());
        buf.extend_from_slice(path.as_bytes());
        buf.push(0);
        buf.extend_from_slice(client_key.as_bytes());

        match self.store.get(buf.clone()).await {
            Ok(Some(cached)) => {
                let mut head = ResponseHeader::build(200, None)?;
                head.insert_header("Idempotent-Replayed", "true")?;
                session.write_response_header(Box::new(head), false).await?;
                session.write_response_body(Some(cached.into()), true).await?;
                Ok(true)
            }
            _ => {
                ctx.key = Some(buf);
                Ok(false)
            }
        }
    }

    async fn upstream_peer(&self, _session: &mut Session, _ctx: &mut Self::CTX) -> Result<Box<HttpPeer>> {
        Ok(Box::new(HttpPeer::new(self.upstream.as_str(), false, String::new())))
    }
}
