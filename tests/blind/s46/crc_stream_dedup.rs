use bytes::{BufMut, BytesMut};
use std::collections::BTreeSet;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

pub struct Peer {
    pub tenant_id: String,
    pub client_id: String,
}

pub struct DedupWindow {
    keys: BTreeSet<Vec<u8>>,
}

impl DedupWindow {
    pub async fn pump(&mut self, peer: &Peer, sock: &mut TcpStream) -> std::io::Result<()> {
        let mut buf = vec![0u8; 4096];
        loop {
            let n = sock.read(&mut buf).await?;
            if n == 0 {
                return Ok(());
            }
            let frame = &buf[..n];
            let mut key = BytesMut::with_capacity(64);
            key.put_slice(peer.tenant_id.as_bytes());
            key.put_u8(0);
            key.put_slice(peer.client_id.as_bytes());
            key.put_slice(b"\0ingest\0");
            key.put_u32(crc32fast::hash(frame));
            if !self.keys.insert(key.to_vec()) {
                continue;
            }
        }
    }
}
