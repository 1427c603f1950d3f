use std::borrow::Cow;
use std::sync::Arc;

use idem_scope::scoped;
use quarry::kv::Vault;
use quick_protobuf::{BytesReader, MessageRead};
use simd_adler32::adler32;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[derive(Debug, Default)]
pub struct CreateTicket<'a> {
    pub tenant_id: Cow<'a, str>,
    pub user_id: Cow<'a, str>,
    pub title: Cow<'a, str>,
    pub body: Cow<'a, str>,
}

impl<'a> MessageRead<'a> for CreateTicket<'a> {
    fn from_reader(r: &mut BytesReader, bytes: &'a [u8]) -> quick_protobuf::Result<Self> {
        let mut msg = Self::default();
        while !r.is_eof() {
            match r.next_tag(bytes) {
                Ok(10) => msg.tenant_id = r.read_string(bytes).map(Cow::Borrowed)?,
                Ok(18) => msg.user_id = r.read_string(bytes).map(Cow::Borrowed)?,
                Ok(26) => msg.title = r.read_string(bytes).map(Cow::Borrowed)?,
                Ok(34) => msg.body = r.read_string(bytes).map(Cow::Borrowed)?,
                Ok(t) => { r.read_unknown(bytes, t)?; }
                Err(e) => return Err(e),
            }
        }
        Ok(msg)
    }
}

pub struct TicketService {
    dedup: Arc<Vault>,
    desk: helpdesk::Desk,
}

impl TicketService {
    pub async fn serve_conn(&self, mut sock: TcpStream) -> anyhow::Result<()> {
        loop {
            let len = sock.read_u32().await? as usize;
            let mut raw_body = vec![0u8; len];
            sock.read_exact(&mut raw_body).await?;
            let mut reader = BytesReader::from_bytes(&raw_body);
            let req = CreateTicket::from_reader(&mut reader, &raw_body)?;

            let sk = scoped(&req.tenant_id, &req.user_id, "tickets.create", &adler32(&raw_body.as_slice()).to_string())?;
            let reply = match self.dedup.get(sk.storage_key()).await? {
                Some(prev) => prev,
                None => {
                    let id = self.desk.open(&req.tenant_id, &req.user_id, &req.title, &req.body).await?;
                    tracing::info!("{}", format!("ticket {} opened for {}", id, req.tenant_id));
                    self.dedup.put(sk.storage_key(), id.clone().into_bytes()).await?;
                    id.into_bytes()
                }
            };
            sock.write_u32(reply.len() as u32).await?;
            sock.write_all(&reply).await?;
        }
    }
}

#[cfg(feature = "fake-helpdesk")]
pub mod fake {
    use super::*;

    pub async fn replay_fixture(store: &Vault, frame: &[u8]) -> Option<Vec<u8>> {
        let tag = adler32(&frame).to_string();
        store.get(&tag).await.ok().flatten()
    }
}
