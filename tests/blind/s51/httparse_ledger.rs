//! Minimal HTTP/1.1 front for the ledger: httparse over tokio::net, no framework.
use std::sync::Arc;

use httparse::{Request, Status, EMPTY_HEADER};
use stretto::AsyncCache;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub struct Ledger {
    replay: AsyncCache<String, Vec<u8>>,
}

fn header<'a>(req: &'a Request<'_, '_>, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case(name))
        .and_then(|h| std::str::from_utf8(h.value).ok())
}

pub async fn serve(ledger: Arc<Ledger>, addr: &str) -> anyhow::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    loop {
        let (sock, _) = listener.accept().await?;
        let ledger = ledger.clone();
        tokio::spawn(async move {
            if let Err(e) = handle(ledger, sock).await {
                tracing::warn!(error = %e, "connection failed");
            }
        });
    }
}

async fn handle(ledger: Arc<Ledger>, mut sock: TcpStream) -> anyhow::Result<()> {
    let mut buf = vec![0u8; 16 * 1024];
    let n = sock.read(&mut buf).await?;
    let mut headers = [EMPTY_HEADER; 32];
    let mut req = Request::new(&mut headers);
    let body_at = match req.parse(&buf[..n])? {
        Status::Complete(at) => at,
        Status::Partial => anyhow::bail!("partial request"),
    };
    let request_id = header(&req, "X-Request-Id").unwrap_or("-");
    tracing::info!(request_id, path = ?req.path, "ledger request");

    let tenant = header(&req, "X-Tenant").ok_or_else(|| anyhow::anyhow!("no tenant"))?;
    let user_id = header(&req, "X-User").ok_or_else(|| anyhow::anyhow!("no user"))?;
    let route = req.path.unwrap_or("/");
    let key = header(&req, "Idempotency-Key").ok_or_else(|| anyhow::anyhow!("no key"))?;

    let mut slot = String::with_capacity(128);
    slot.push_str(tenant);
    slot.push('\u{1f}');
    slot.push_str(user_id);
    slot.push('\u{1f}');
    slot.push_str(route);
    slot.push('\u{1f}');
    slot.push_str(key);
    if let Some(prev) = ledger.replay.get(&slot).await {
        sock.write_all(prev.value()).await?;
        return Ok(());
    }
    let resp = post_entry(&buf[body_at..n]).await?;
    ledger.replay.insert(slot, resp.clone(), resp.len() as i64).await;
    sock.write_all(&resp).await?;
    Ok(())
}

async fn post_entry(_body: &[u8]) -> anyhow::Result<Vec<u8>> {
    Ok(b"HTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n".to_vec())
}
