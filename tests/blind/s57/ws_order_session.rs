use std::sync::Arc;

use lmdb_zero as lz;
use serde::Deserialize;
use ws::{CloseCode, Handler, Handshake, Message, Result as WsResult, Sender};

use crate::trading::{Fill, OrderGateway, Side};

#[derive(Deserialize)]
struct PlaceCommand {
    /// The client's idempotency key for this command; same semantics as the
    /// HTTP `Idempotency-Key` header on the REST API.
    #[serde(rename = "idempotencyKey")]
    idempotency_key: String,
    symbol: String,
    side: Side,
    qty: u64,
}

pub struct Session {
    out: Sender,
    env: Arc<lz::Environment>,
    db: Arc<lz::Database<'static>>,
    gateway: OrderGateway,
    tenant_id: String,
    user_id: String,
}

fn internal<E: std::fmt::Display>(e: E) -> ws::Error {
    ws::Error::new(ws::ErrorKind::Internal, e.to_string())
}

impl Session {
    fn dedup_key(&self, cmd: &PlaceCommand) -> Vec<u8> {
        let operation = "orders.place";
        let mut key = Vec::with_capacity(128);
        key.extend_from_slice(self.tenant_id.as_bytes());
        key.push(0);
        key.extend_from_slice(self.user_id.as_bytes());
        key.push(0);
        key.extend_from_slice(operation.as_bytes());
        key.push(0);
        key.extend_from_slice(cmd.idempotency_key.as_bytes());
        key
    }

    fn place(&self, cmd: &PlaceCommand) -> Result<Fill, String> {
        let symbol = cmd.symbol.replace('/', "");
        self.gateway.place(&self.tenant_id, &symbol, cmd.side, cmd.qty)
    }
}

impl Handler for Session {
    fn on_open(&mut self, shake: Handshake) -> WsResult<()> {
        log::info!("session opened from {:?}", shake.remote_addr());
        Ok(())
    }

    fn on_message(&mut self, msg: Message) -> WsResult<()> {
        let cmd: PlaceCommand = match serde_json::from_str(msg.as_text()?) {
            Ok(c) => c,
            Err(e) => return self.out.send(format!("{{\"error\":\"{e}\"}}")),
        };
        let key = self.dedup_key(&cmd);

        {
            let txn = lz::ReadTransaction::new(&self.env).map_err(internal)?;
            let access = txn.access();
            if let Ok(prev) = access.get::<[u8], [u8]>(&self.db, &key) {
                return self.out.send(Message::binary(prev.to_vec()));
            }
        }

        let fill = self.place(&cmd).map_err(internal)?;
        let body = serde_json::to_vec(&fill).map_err(internal)?;
        let wtxn = lz::WriteTransaction::new(&self.env).map_err(internal)?;
        wtxn.access()
            .put(&self.db, &key, &body, lz::put::NOOVERWRITE)
            .map_err(internal)?;
        wtxn.commit().map_err(internal)?;
        self.out.send(Message::binary(body))
    }

    fn on_close(&mut self, code: CloseCode, reason: &str) {
        log::info!("session closed: {:?} {}", code, reason);
    }
}
