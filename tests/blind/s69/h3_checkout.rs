//! HTTP/3 checkout endpoint for the public charging web app (served over
//! QUIC with `h3` + `h3_quinn`).

use bytes::Buf;
use garner::bin::Bin;
use h3::server::RequestStream;
use http::{Request, Response, StatusCode};
use idem_scope::{scoped, IdempotencyKey};

pub async fn handle<S>(req: Request<()>, mut stream: RequestStream<S, bytes::Bytes>, bin: &Bin) -> Result<(), h3::Error>
where
    S: h3::quic::BidiStream<bytes::Bytes>,
{
    let auth = crate::webauth::session_from(&req);
    let Some(raw) = req.headers().get("idempotency-key") else {
        let resp = Response::builder().status(StatusCode::BAD_REQUEST).body(()).unwrap();
        stream.send_response(resp).await?;
        return stream.finish().await;
    };
    let key = match IdempotencyKey::parse_lenient(raw.as_bytes()) {
        Ok(k) => k,
        Err(_) => {
            let resp = Response::builder().status(StatusCode::BAD_REQUEST).body(()).unwrap();
            stream.send_response(resp).await?;
            return stream.finish().await;
        }
    };
    let mut body = Vec::new();
    while let Some(mut chunk) = stream.recv_data().await? {
        while chunk.has_remaining() {
            let c = chunk.chunk();
            body.extend_from_slice(c);
            let n = c.len();
            chunk.advance(n);
        }
    }
    let Some(auth) = auth else {
        let resp = Response::builder().status(StatusCode::UNAUTHORIZED).body(()).unwrap();
        stream.send_response(resp).await?;
        return stream.finish().await;
    };
    let Ok(sk) = scoped(&auth.org_id, &auth.user_id, "default", key.as_str()) else {
        let resp = Response::builder().status(StatusCode::BAD_REQUEST).body(()).unwrap();
        stream.send_response(resp).await?;
        return stream.finish().await;
    };
    let status = match bin.get(sk.storage_key()).await {
        Ok(Some(_)) => StatusCode::OK,
        _ => {
            let order = crate::checkout::place(&auth, &body).await;
            let _ = bin.put(sk.storage_key(), order.as_bytes()).await;
            StatusCode::CREATED
        }
    };
    let resp = Response::builder().status(status).body(()).unwrap();
    stream.send_response(resp).await?;
    stream.finish().await
}
