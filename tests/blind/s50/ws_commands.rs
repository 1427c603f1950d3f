//! WebSocket command channel (tokio-tungstenite). Each text frame is a JSON command.
use futures_util::{SinkExt, StreamExt};
use lru::LruCache;
use serde::Deserialize;
use std::fmt::Write as _;
use std::num::NonZeroUsize;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use uuid::Uuid;

#[derive(Deserialize)]
pub struct Command {
    pub op: String,
    /// The client's idempotency key, same semantics as the HTTP `Idempotency-Key` header.
    #[serde(rename = "Idempotency-Key")]
    pub idempotency_key: String,
    #[serde(default)]
    pub request_id: Option<String>,
    pub args: serde_json::Value,
}

pub struct Session {
    pub tenant_id: String,
    pub user_id: String,
}

pub async fn serve(stream: TcpStream, session: Session) -> anyhow::Result<()> {
    let mut ws = tokio_tungstenite::accept_async(stream).await?;
    let mut seen: LruCache<String, String> = LruCache::new(NonZeroUsize::new(1024).unwrap());
    let conn_id = Uuid::new_v4();
    tracing::debug!(%conn_id, "ws session opened");

    while let Some(frame) = ws.next().await {
        let Message::Text(text) = frame? else { continue };
        let cmd: Command = serde_json::from_str(&text)?;
        if let Some(rid) = &cmd.request_id {
            tracing::info!(request_id = %rid, op = %cmd.op, "command");
        }

        let mut key = String::with_capacity(128);
        write!(key, "{}\u{1e}{}\u{1e}{}\u{1e}{}", session.tenant_id, session.user_id, cmd.op, cmd.idempotency_key)?;

        if let Some(prev) = seen.get(&key) {
            ws.send(Message::Text(prev.clone().into())).await?;
            continue;
        }
        let reply = execute(&session, &cmd).await?;
        seen.put(key, reply.clone());
        ws.send(Message::Text(reply.into())).await?;
    }
    tracing::debug!(%conn_id, "ws session closed");
    Ok(())
}

async fn execute(session: &Session, cmd: &Command) -> anyhow::Result<String> {
    let mut out = String::new();
    write!(out, "{{\"ok\":true,\"op\":\"{}\",\"tenant\":\"{}\"}}", cmd.op, session.tenant_id)?;
    Ok(out)
}
