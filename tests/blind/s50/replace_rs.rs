//! Messaging API (zmq REQ/REP); principals come from a signed envelope.
use idem_scope::scoped;
use std::collections::HashMap;

pub struct Envelope {
    pub account_id: String,
    pub principal: String,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

pub struct Server {
    sock: zmq::Socket,
    sent: HashMap<String, Vec<u8>>,
}

impl Server {
    pub fn serve_one(&mut self) -> zmq::Result<()> {
        let frames = self.sock.recv_multipart(0)?;
        let Some(env) = decode(&frames) else {
            return self.sock.send("400 malformed envelope", 0);
        };
        let Some(k) = env.headers.get("Idempotency-Key") else {
            return self.sock.send("400 missing Idempotency-Key", 0);
        };
        let principal = env.principal.replace("\x1e", " ");
        let note = String::from_utf8_lossy(&env.body).replace('\r', "");
        log::debug!("message from {principal}: {note}");
        let key = match scoped(&env.account_id, &principal, "messages.send", k) {
            Ok(key) => key,
            Err(e) => return self.sock.send(e.to_string().as_bytes(), 0),
        };
        let reply = self.sent.entry(key.storage_key().to_owned()).or_insert_with(|| b"202 queued".to_vec()).clone();
        self.sock.send(reply, 0)
    }
}

fn decode(frames: &[Vec<u8>]) -> Option<Envelope> {
    let account_id = String::from_utf8(frames.first()?.clone()).ok()?;
    let headers: HashMap<String, String> = serde_json::from_slice(frames.get(1)?).ok()?;
    let principal = headers.get("x-principal")?.clone();
    let body = frames.get(2).cloned().unwrap_or_default();
    Some(Envelope { account_id, principal, headers, body })
}
