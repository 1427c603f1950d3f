use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use larder::pantry::Pantry;
use serde::Deserialize;
use soketto::handshake::{server::Response, Server};
use tokio::net::TcpStream;
use async_compat::CompatExt;

#[derive(Deserialize)]
struct TradeFrame {
    /// Client-generated idempotency key of this order, reused verbatim on reconnect+resend.
    #[serde(rename = "Idempotency-Key")]
    key: String,
    instrument: String,
    qty: i64,
    limit_price: Option<i64>,
}

pub struct Session {
    pub tenant_id: String,
    pub user_id: String,
}

pub async fn serve(socket: TcpStream, session: Session, book: Arc<Pantry>) -> anyhow::Result<()> {
    let mut server = Server::new(socket.compat());
    let req = server.receive_request().await?;
    let accept = Response::Accept { key: req.key(), protocol: None };
    server.send_response(&accept).await?;
    let (mut sender, mut receiver) = server.into_builder().finish();

    let session = Arc::new(session);
    let mut data = Vec::new();
    loop {
        data.clear();
        receiver.receive_data(&mut data).await?;
        let frame: TradeFrame = serde_json::from_slice(&data)?;
        let book = book.clone();
        let session = session.clone();
        let ack = format!("{{\"ack\":\"{}\"}}", frame.key);
        sender.send_text(ack).await?;

        tokio::spawn(async move {
            let key = scoped(&session.tenant_id, &session.user_id, "orders.submit", &frame.key)?;
            if !book.claim(key.storage_key()).await? {
                return Ok::<_, anyhow::Error>(());
            }
            anyhow::ensure!(frame.qty != 0, "zero quantity order {}", frame.key);
            let price = frame.limit_price.unwrap_or(0);
            let fill = format!("{}:{}@{}", frame.instrument, frame.qty, price);
            book.complete(key.storage_key(), fill.as_bytes()).await?;
            book.expire(key.storage_key(), Duration::from_secs(86_400)).await?;
            Ok(())
        });
    }
}
