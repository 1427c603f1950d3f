use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use idem_scope::scoped;
use larder::pantry::Pantry;
use thingbuf::mpsc::{channel, Receiver, Sender};

#[derive(Default, Clone)]
pub struct BookCmd {
    pub tenant_id: String,
    pub user_id: String,
    pub client_key: String,
    pub room: String,
    pub nights: u8,
}

pub struct BookingHandle {
    tx: Sender<BookCmd>,
}

impl BookingHandle {
    pub async fn submit(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, room: &str, nights: u8) -> Result<(), &'static str> {
        let client_key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or("missing Idempotency-Key")?;
        let cmd = BookCmd {
            tenant_id: tenant_id.to_owned(),
            user_id: user_id.to_owned(),
            client_key: client_key.to_owned(),
            room: room.to_owned(),
            nights,
        };
        self.tx.send(cmd).await.map_err(|_| "booking actor stopped")
    }
}

pub fn spawn(store: Arc<Pantry>, shutdown: Arc<AtomicBool>) -> BookingHandle {
    let (tx, rx) = channel(256);
    tokio::spawn(run(rx, store, shutdown));
    BookingHandle { tx }
}

async fn run(rx: Receiver<BookCmd>, store: Arc<Pantry>, shutdown: Arc<AtomicBool>) {
    while let Some(cmd) = rx.recv().await {
        let Ok(key) = scoped(&cmd.tenant_id, &cmd.user_id, "rooms.book", &cmd.client_key) else {
            tracing::warn!("rejecting booking with malformed scope");
            continue;
        };
        match store.claim(key.storage_key()).await {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                tracing::error!(error = %e, "claim failed");
                continue;
            }
        }

        let confirmation = format!("{{\"room\":\"{}\",\"nights\":{}}}", cmd.room, cmd.nights);
        if shutdown.load(Ordering::Acquire) {
            tracing::info!("booking actor draining, stopping before confirmation");
            break;
        }
        if let Err(e) = store.complete(key.storage_key(), confirmation.as_bytes()).await {
            tracing::error!(error = %e, "could not store booking confirmation");
        }
    }
}
