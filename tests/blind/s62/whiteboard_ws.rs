use std::sync::Arc;

use futures::{SinkExt, StreamExt};
use idem_scope::scoped;
use quarry::kv::Vault;
use serde::Deserialize;
use tokio::net::TcpStream;
use tokio_websockets::{Message, ServerBuilder};

#[derive(Deserialize)]
struct Shape {
    kind: String,
    points: Vec<(f32, f32)>,
}

#[derive(Deserialize)]
struct Frame {
    op: String,
    /// Client-generated idempotency key for this operation; the websocket
    /// equivalent of the HTTP `Idempotency-Key` header.
    idempotency_key: String,
    shape: Option<Shape>,
}

pub struct Team {
    pub id: String,
}

pub struct Conn {
    pub user_id: String,
    pub team: Option<Team>,
    pub plan: Option<String>,
}

pub struct Board {
    vault: Arc<Vault>,
    canvas: canvas::Store,
}

impl Board {
    pub async fn serve(&self, stream: TcpStream, conn: Conn) -> anyhow::Result<()> {
        let (_req, mut ws) = ServerBuilder::new().accept(stream).await?;
        while let Some(msg) = ws.next().await {
            let msg = msg?;
            let Some(text) = msg.as_text() else { continue };
            let frame: Frame = match serde_json::from_str(text) {
                Ok(f) => f,
                Err(e) => {
                    ws.send(Message::text(format!("{{\"error\":\"{e}\"}}"))).await?;
                    continue;
                }
            };

            let team_id = match &conn.team {
                Some(team) => team.id.clone(),
                None => "shared".to_owned(),
            };
            let plan = match conn.plan.as_deref() {
                Some(p) => p,
                None => "free",
            };
            let sk = scoped(&team_id, &conn.user_id, &frame.op, &frame.idempotency_key)?;
            if let Some(prev) = self.vault.get(sk.storage_key()).await? {
                ws.send(Message::binary(prev)).await?;
                continue;
            }
            let result = self.canvas.apply(&team_id, plan, &frame.op, frame.shape.map(|s| (s.kind, s.points))).await?;
            self.vault.put(sk.storage_key(), result.to_bytes()).await?;
            ws.send(Message::binary(result.to_bytes())).await?;
        }
        Ok(())
    }
}
