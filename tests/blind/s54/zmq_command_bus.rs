use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use idem_scope::scoped;
use ledgerkit::blocking::ReplayDb;

#[derive(Debug, Clone, Deserialize, Serialize, strum::Display)]
#[strum(serialize_all = "snake_case")]
pub enum Principal {
    #[strum(to_string = "user/{0}")]
    User(String),
    #[strum(to_string = "svc/{0}")]
    Service(String),
    Anonymous,
}

#[derive(Deserialize)]
struct Envelope {
    tenant_id: String,
    #[serde(default)]
    principal: Option<Principal>,
    #[serde(rename = "Idempotency-Key")]
    idem: String,
    op: String,
    body: serde_json::Value,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    fingerprint: [u8; 32],
    reply: Vec<u8>,
}

pub fn serve(endpoint: &str, db: ReplayDb) -> anyhow::Result<()> {
    let ctx = zmq::Context::new();
    let sock = ctx.socket(zmq::REP)?;
    sock.bind(endpoint)?;
    loop {
        let frame = sock.recv_bytes(0)?;
        let env: Envelope = match serde_json::from_slice(&frame) {
            Ok(e) => e,
            Err(e) => {
                sock.send(format!("{{\"error\":\"{e}\"}}").as_bytes(), 0)?;
                continue;
            }
        };
        let principal = env.principal.clone().unwrap_or_else(|| Principal::Anonymous);
        let principal_id = principal.to_string();
        let sk = scoped(&env.tenant_id, &principal_id, &env.op, &env.idem)?;
        let payload_bytes = serde_json::to_vec(&env.body)?;
        let body_hash: [u8; 32] = Sha256::digest(&payload_bytes).into();

        let reply = match db.get::<Stored>(sk.storage_key())? {
            Some(prev) if prev.fingerprint == body_hash => prev.reply,
            Some(_) => br#"{"error":"idempotency key reused with another payload"}"#.to_vec(),
            None => {
                let reply_id = Uuid::new_v4();
                tracing::info!(%reply_id, op = %env.op, "executing command");
                let reply = commands::dispatch(&env.op, &env.tenant_id, &principal, &env.body)?;
                db.put(sk.storage_key(), &Stored { fingerprint: body_hash, reply: reply.clone() })?;
                reply
            }
        };
        sock.send(&reply, 0)?;
    }
}
