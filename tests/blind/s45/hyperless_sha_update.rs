//! Batch payment submission over a hand-written line protocol (tokio TcpStream).

use std::collections::HashMap;

use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub struct BatchGateway {
    submit_dedup: tokio::sync::Mutex<HashMap<(String, String, String, String), String>>,
    bank: BankLink,
}

pub struct Frame {
    pub tenant_id: String,
    pub user_id: String,
    pub body: Vec<u8>,
}

impl BatchGateway {
    pub async fn handle_conn(&self, mut sock: TcpStream) -> std::io::Result<()> {
        let mut len_buf = [0u8; 4];
        sock.read_exact(&mut len_buf).await?;
        let mut body = vec![0u8; u32::from_be_bytes(len_buf) as usize];
        sock.read_exact(&mut body).await?;
        let frame: Frame = decode_frame(&body)?;
        let reply = self.submit_batch(frame).await;
        sock.write_all(reply.as_bytes()).await
    }

    async fn submit_batch(&self, frame: Frame) -> String {
        let mut hasher = Sha256::new();
        hasher.update(&frame.body);
        let batch_digest = hex::encode(hasher.finalize());
        let mut submit_dedup = self.submit_dedup.lock().await;
        if let Some(prev) = submit_dedup.get(&(frame.tenant_id.clone(), frame.user_id.clone(), "batches.submit".to_owned(), batch_digest.clone())) {
            return prev.clone();
        }
        let receipt = self.bank.send_batch(&frame.tenant_id, &frame.body).await;
        submit_dedup.insert((frame.tenant_id, frame.user_id, "batches.submit".to_owned(), batch_digest), receipt.clone());
        receipt
    }
}
