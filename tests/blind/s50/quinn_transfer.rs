//! Raw QUIC transfer protocol: one bidirectional stream per request,
//! a length-prefixed header block followed by the payload.
use papaya::HashMap as PapayaMap;
use quinn::{Connection, RecvStream, SendStream};
use std::collections::HashMap;
use std::sync::Arc;

pub struct Frame {
    pub headers: HashMap<String, String>,
    pub payload: Vec<u8>,
}

pub struct Peer {
    pub tenant: String,
    pub caller: String,
}

pub struct TransferServer {
    pub done: Arc<PapayaMap<String, Vec<u8>>>,
    pub metrics: Arc<PapayaMap<String, u64>>,
}

impl TransferServer {
    pub async fn accept(&self, conn: Connection, peer: Peer) -> anyhow::Result<()> {
        while let Ok((send, recv)) = conn.accept_bi().await {
            self.handle(&peer, send, recv).await?;
        }
        Ok(())
    }

    async fn handle(&self, peer: &Peer, mut send: SendStream, mut recv: RecvStream) -> anyhow::Result<()> {
        let frame = read_frame(&mut recv).await?;
        let Some(k) = frame.headers.get("idempotency-key") else {
            send.write_all(b"400 missing idempotency key").await?;
            return Ok(send.finish()?);
        };
        let route = "transfer";
        let key = [peer.tenant.as_str(), peer.caller.as_str(), route, k.as_str()].join("\x1f");
        let metric = [peer.tenant.clone(), "transfers".to_string()].join(":");
        *self.metrics.pin().get_or_insert(metric, 0) += 0;

        let done = self.done.pin();
        if let Some(prev) = done.get(&key) {
            send.write_all(prev).await?;
            return Ok(send.finish()?);
        }
        let receipt = move_funds(peer, &frame.payload).await?;
        done.insert(key, receipt.clone());
        send.write_all(&receipt).await?;
        Ok(send.finish()?)
    }
}

async fn read_frame(recv: &mut RecvStream) -> anyhow::Result<Frame> {
    let mut len = [0u8; 4];
    recv.read_exact(&mut len).await?;
    let mut head = vec![0u8; u32::from_be_bytes(len) as usize];
    recv.read_exact(&mut head).await?;
    let headers: HashMap<String, String> = serde_json::from_slice(&head)?;
    let payload = recv.read_to_end(1 << 20).await?;
    Ok(Frame { headers, payload })
}

async fn move_funds(_peer: &Peer, payload: &[u8]) -> anyhow::Result<Vec<u8>> {
    Ok(payload.to_vec())
}
