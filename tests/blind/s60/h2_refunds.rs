use std::sync::Arc;

use bytes::Bytes;
use h2::server::{self, SendResponse};
use h2::RecvStream;
use http::{HeaderMap, Request, Response, StatusCode};
use im::HashMap as ImMap;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::RwLock;

const IDEMPOTENCY_KEY: &str = "idempotency-key";
const SEP: char = '\u{1e}';

#[derive(Clone, Default)]
pub struct Replies {
    inner: Arc<RwLock<ImMap<String, Bytes>>>,
}

#[derive(Debug)]
enum Reject {
    NoKey,
    NoTenant,
    NoSubject,
    BadComponent,
}

fn header<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).and_then(|v| v.to_str().ok())
}

fn reply_slot(tenant_id: &str, user_id: &str, key: &str) -> String {
    let mut s = String::with_capacity(tenant_id.len() + user_id.len() + key.len() + 16);
    s.push_str(tenant_id);
    s.push(SEP);
    s.push_str(user_id);
    s.push(SEP);
    s.push_str("refund");
    s.push(SEP);
    s.push_str(key);
    s
}

fn identity(h: &HeaderMap) -> Result<(&str, &str), Reject> {
    let tenant_id = header(h, "x-tenant-id").ok_or(Reject::NoTenant)?;
    let user_id = header(h, "x-authenticated-user").ok_or(Reject::NoSubject)?;
    if tenant_id.contains(SEP) || user_id.contains(SEP) {
        return Err(Reject::BadComponent);
    }
    Ok((tenant_id, user_id))
}

async fn handle(
    replies: Replies,
    req: Request<RecvStream>,
    mut respond: SendResponse<Bytes>,
) -> Result<(), h2::Error> {
    let outcome = (|| {
        let key = header(req.headers(), IDEMPOTENCY_KEY).ok_or(Reject::NoKey)?;
        let (tenant_id, user_id) = identity(req.headers())?;
        Ok::<_, Reject>(reply_slot(tenant_id, user_id, key))
    })();
    let slot = match outcome {
        Ok(s) => s,
        Err(reason) => {
            let rsp = Response::builder().status(StatusCode::BAD_REQUEST).body(()).unwrap();
            let mut stream = respond.send_response(rsp, false)?;
            stream.send_data(Bytes::from(format!("{reason:?}")), true)?;
            return Ok(());
        }
    };

    if let Some(cached) = replies.inner.read().await.get(&slot).cloned() {
        let rsp = Response::builder()
            .status(StatusCode::OK)
            .header("idempotent-replayed", "true")
            .body(())
            .unwrap();
        respond.send_response(rsp, false)?.send_data(cached, true)?;
        return Ok(());
    }

    let mut body = req.into_body();
    let mut raw = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk?;
        let _ = body.flow_control().release_capacity(chunk.len());
        raw.extend_from_slice(&chunk);
    }
    let result = Bytes::from(issue_refund(&raw).await);
    replies.inner.write().await.insert(slot, result.clone());

    let rsp = Response::builder().status(StatusCode::CREATED).body(()).unwrap();
    respond.send_response(rsp, false)?.send_data(result, true)?;
    Ok(())
}

pub async fn serve(addr: &str, replies: Replies) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    loop {
        let (socket, _) = listener.accept().await?;
        let replies = replies.clone();
        tokio::spawn(async move {
            if let Ok(mut conn) = server::handshake::<TcpStream, Bytes>(socket).await {
                while let Some(Ok((req, respond))) = conn.accept().await {
                    tokio::spawn(handle(replies.clone(), req, respond));
                }
            }
        });
    }
}
