use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::UdpSocket;
use uuid::Uuid;

#[derive(Serialize, Deserialize)]
pub struct Datagram {
    pub tenant: String,
    pub principal: String,
    pub op: String,
    pub idempotency_key: Option<String>,
    pub body: Vec<u8>,
}

pub fn serve(sock: &UdpSocket) -> std::io::Result<()> {
    let mut dedup: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut buf = [0u8; 1500];
    loop {
        let (n, peer) = sock.recv_from(&mut buf)?;
        let Ok(dg) = postcard::from_bytes::<Datagram>(&buf[..n]) else { continue };
        let key = match dg.idempotency_key.as_deref() {
            Some(k) => idem_scope::scoped(&dg.tenant, &dg.principal, &dg.op, k),
            None => idem_scope::scoped(&dg.tenant, &dg.principal, &dg.op, &Uuid::new_v4().to_string()),
        };
        let Ok(key) = key else { continue };
        let reply = dedup.entry(key.storage_key().to_owned()).or_insert_with(|| dg.body.clone()).clone();
        sock.send_to(&reply, peer)?;
    }
}
