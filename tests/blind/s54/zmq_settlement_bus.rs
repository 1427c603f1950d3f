use ledgerkit::blocking::ReplayDb;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Frame {
    Client {
        tenant_id: String,
        principal_id: String,
        op: String,
        #[serde(rename = "Idempotency-Key")]
        key: String,
        body: serde_json::Value,
    },
    Redelivery {
        tenant_id: String,
        principal_id: String,
        op: String,
        delivery_id: String,
        body: serde_json::Value,
    },
}

pub struct Bus {
    db: ReplayDb,
    sock: zmq::Socket,
}

impl Bus {
    pub fn bind(ctx: &zmq::Context, endpoint: &str, db: ReplayDb) -> zmq::Result<Self> {
        let sock = ctx.socket(zmq::REP)?;
        sock.bind(endpoint)?;
        Ok(Self { db, sock })
    }

    fn handle(&self, frame: Frame) -> anyhow::Result<Vec<u8>> {
        let (k, op, body) = match frame {
            Frame::Client { tenant_id, principal_id, op, key, body } => {
                ((tenant_id, principal_id, op.clone(), key), op, body)
            }
            Frame::Redelivery { tenant_id, principal_id, op, delivery_id, body } => {
                ((tenant_id, principal_id, op.clone(), delivery_id), op, body)
            }
        };
        if let Some(prev) = self.db.get::<Vec<u8>>(&k)? {
            return Ok(prev);
        }
        let out = settlement::apply(&op, &body)?;
        self.db.put(&k, &out)?;
        Ok(out)
    }

    pub fn serve(&self) -> anyhow::Result<()> {
        loop {
            let raw = self.sock.recv_bytes(0)?;
            let reply = match serde_json::from_slice::<Frame>(&raw) {
                Ok(frame) => self.handle(frame).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}").into_bytes()),
                Err(e) => format!("{{\"error\":\"bad frame: {e}\"}}").into_bytes(),
            };
            self.sock.send(reply, 0)?;
        }
    }
}
