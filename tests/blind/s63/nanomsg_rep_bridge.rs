use std::io::{Read, Write};
use std::sync::Arc;

use cistern::vat::SyncVat;
use idem_scope::scoped;
use nanomsg::{Protocol, Socket};
use serde::{Deserialize, Serialize};

/// Frames from the mainframe bridge. Requests relayed from the public API
/// carry the client's key; batch frames carry the bridge's own message id.
#[derive(Deserialize)]
pub struct Frame {
    pub origin: Origin,
    /// The client's Idempotency-Key (present when origin is "api").
    pub idempotency_key: Option<String>,
    pub message_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub op: String,
    pub body: Vec<u8>,
}

#[derive(Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Api,
    Batch,
}

#[derive(Serialize)]
struct Ack<'a> {
    message_id: &'a str,
    client_key: Option<&'a str>,
    result: &'a [u8],
}

pub fn serve(endpoint: &str, vat: Arc<SyncVat>, core: Arc<mainframe::Gateway>) -> nanomsg::Result<()> {
    let mut socket = Socket::new(Protocol::Rep)?;
    socket.bind(endpoint)?;
    let mut buf = Vec::with_capacity(64 * 1024);
    loop {
        buf.clear();
        socket.read_to_end(&mut buf)?;
        let Ok(frame) = serde_json::from_slice::<Frame>(&buf) else {
            socket.write_all(b"{\"error\":\"bad frame\"}")?;
            continue;
        };
        let scoped_key = match (&frame.origin, frame.idempotency_key.as_deref()) {
            (Origin::Api, Some(client_key)) => scoped(&frame.tenant_id, &frame.user_id, &frame.op, client_key),
            (Origin::Batch, _) => scoped(&frame.tenant_id, &frame.user_id, &frame.op, &frame.message_id),
            (Origin::Api, None) => {
                socket.write_all(b"{\"error\":\"missing key\"}")?;
                continue;
            }
        };
        let Ok(sk) = scoped_key else {
            socket.write_all(b"{\"error\":\"bad scope\"}")?;
            continue;
        };
        let result = match vat.get(sk.storage_key()) {
            Some(done) => done,
            None => {
                let out = core.execute(&frame.tenant_id, &frame.op, &frame.body);
                vat.put(sk.storage_key(), out.clone());
                out
            }
        };
        let ack = Ack { message_id: &frame.message_id, client_key: frame.idempotency_key.as_deref(), result: &result };
        socket.write_all(&serde_json::to_vec(&ack).unwrap_or_default())?;
    }
}
