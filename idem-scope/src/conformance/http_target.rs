//! A live service at a base URL, as a `tower::Service` the kit can drive.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, Response, Uri};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;

use super::BoxError;

/// Sends each request on a fresh HTTP/1.1 connection to `http://host:port`
/// (plain HTTP only: run the probe next to the service or through a local
/// TLS-terminating proxy).
#[derive(Debug, Clone)]
pub struct HttpTarget {
    authority: String,
    base_path: String,
}

impl HttpTarget {
    /// `base` such as `http://127.0.0.1:3000` or `http://host:8080/api`.
    pub fn new(base: &str) -> Result<Self, String> {
        let uri: Uri = base
            .parse()
            .map_err(|e| format!("not a URL: {base}: {e}"))?;
        if uri.scheme_str() != Some("http") {
            return Err(format!("only http:// base URLs are supported, not {base}"));
        }
        let host = uri.host().ok_or_else(|| format!("no host in {base}"))?;
        let port = uri.port_u16().unwrap_or(80);
        Ok(HttpTarget {
            authority: format!("{host}:{port}"),
            base_path: uri.path().trim_end_matches('/').to_owned(),
        })
    }
}

impl tower::Service<Request<Full<Bytes>>> for HttpTarget {
    type Response = Response<Incoming>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Incoming>, BoxError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Full<Bytes>>) -> Self::Future {
        let authority = self.authority.clone();
        let base_path = self.base_path.clone();
        Box::pin(async move {
            let stream = tokio::net::TcpStream::connect(&authority).await?;
            let (mut sender, conn) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
            tokio::spawn(conn);
            let (mut parts, body) = req.into_parts();
            let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
            parts.uri = format!("{base_path}{path}").parse()?;
            parts.headers.insert(http::header::HOST, authority.parse()?);
            Ok(sender
                .send_request(Request::from_parts(parts, body))
                .await?)
        })
    }
}
