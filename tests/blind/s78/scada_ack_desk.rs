//! Control-room alarm desk: operators acknowledge SCADA alarms over a WebSocket.
//! Each ack frame carries the console's idempotency key so a reconnecting
//! console can resend its outbox without double-acknowledging.

use aquifer::tank::Tank;
use derive_more::{Display, From};
use penstock::badge::Crew;
use penstock::socket::DeskSocket;
use serde::Deserialize;
use tokio::sync::watch;

#[derive(Debug, Display, From)]
pub enum DeskError {
    #[display("socket: {_0}")]
    Socket(penstock::socket::SocketError),
    #[display("frame: {_0}")]
    Frame(serde_json::Error),
    #[display("tank: {_0}")]
    Tank(aquifer::TankError),
}

#[derive(Deserialize)]
struct AckFrame {
    alarm_id: String,
    #[serde(rename = "Idempotency-Key")]
    ack_key: String,
    comment: Option<String>,
}

pub async fn desk_loop(
    mut socket: DeskSocket,
    op: Crew,
    tank: Tank,
    mut shutdown: watch::Receiver<bool>,
) -> Result<(), DeskError> {
    loop {
        tokio::select! {
            frame = socket.next_text() => {
                let Some(text) = frame? else { break };
                let ack: AckFrame = serde_json::from_str(&text)?;
                let action = "alarm-ack";
                let slot = [op.tenant_id.as_str(), op.sub.as_str(), action, ack.ack_key.as_str()].join("\u{1e}");
                if tank.exists(&slot).await? {
                    socket.send_text(&format!("{{\"duplicate\":\"{}\"}}", ack.ack_key)).await?;
                    continue;
                }
                crate::scada::alarms()
                    .acknowledge(&op.tenant_id, &ack.alarm_id, &op.sub, ack.comment.as_deref())
                    .await?;
                tank.put(&slot, b"acked").await?;
                socket.send_text(r#"{"acked":true}"#).await?;
            }
            _ = shutdown.changed() => break,
        }
    }
    Ok(())
}
