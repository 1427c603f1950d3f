//! MLLP listener for HL7 v2 ORU^R01 results from the reference lab.
//!
//! Each result message is claimed under a server key built from the sending
//! facility and MSH-10, so a resend after a lost ACK is acknowledged without
//! filing the results twice.

use std::time::Duration;

use hl7_parser::Message;
use idem_scope::scoped_server;
use silage::bunker::Bunker;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

const SB: u8 = 0x0b;
const EB: u8 = 0x1c;
const LEASE: Duration = Duration::from_secs(300);

pub struct ResultsInbox {
    pub org_id: String,
    pub inbox: Bunker,
    pub results: crate::labresults::ResultFiler,
}

#[derive(Debug, thiserror::Error)]
pub enum MllpError {
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    #[error("store: {0}")]
    Store(#[from] silage::StoreError),
    #[error("filing: {0}")]
    Filing(#[from] crate::labresults::FilingError),
    #[error("scope: {0}")]
    Scope(#[from] idem_scope::ScopeError),
}

async fn read_frame(reader: &mut BufReader<OwnedReadHalf>) -> Result<Option<Vec<u8>>, MllpError> {
    let mut buf = Vec::new();
    if reader.read_until(EB, &mut buf).await? == 0 {
        return Ok(None);
    }
    let mut cr = Vec::new();
    reader.read_until(b'\r', &mut cr).await?;
    let start = buf.iter().position(|b| *b == SB).map(|i| i + 1).unwrap_or(0);
    buf.truncate(buf.len().saturating_sub(1));
    Ok(Some(buf.split_off(start)))
}

async fn send_ack(w: &mut OwnedWriteHalf, control_id: &str, code: &str) -> Result<(), MllpError> {
    let ack = format!("MSH|^~\\&|VETRA|VETRA|||||ACK|{control_id}|P|2.5.1\rMSA|{code}|{control_id}\r");
    w.write_all(&[SB]).await?;
    w.write_all(ack.as_bytes()).await?;
    w.write_all(&[EB, b'\r']).await?;
    Ok(())
}

impl ResultsInbox {
    pub async fn serve(&self, stream: TcpStream) -> Result<(), MllpError> {
        let (r, mut w) = stream.into_split();
        let mut reader = BufReader::new(r);
        while let Some(raw) = read_frame(&mut reader).await? {
            let text = String::from_utf8_lossy(&raw).into_owned();
            let Ok(msg) = Message::parse(&text) else {
                send_ack(&mut w, "UNKNOWN", "AR").await?;
                continue;
            };
            let Some(control_id) = msg.query("MSH.10").map(|v| v.raw_value().to_owned()) else {
                send_ack(&mut w, "UNKNOWN", "AR").await?;
                continue;
            };
            let facility = msg.query("MSH.4").map(|v| v.raw_value().to_owned()).unwrap_or_else(|| "reflab".into());
            let key = scoped_server(&self.org_id, &facility, "/mllp/oru", &control_id)?;

            if !self.inbox.claim(key.storage_key(), LEASE).await? {
                send_ack(&mut w, &control_id, "AA").await?;
                continue;
            }

            let observations = match crate::labresults::observations(&msg) {
                Ok(obs) => obs,
                Err(e) => {
                    tracing::warn!(%control_id, error = %e, "unparseable OBX segments");
                    send_ack(&mut w, &control_id, "AE").await?;
                    continue;
                }
            };
            self.results.file(&self.org_id, &observations).await?;
            self.inbox.complete(key.storage_key(), b"AA").await?;
            send_ack(&mut w, &control_id, "AA").await?;
        }
        Ok(())
    }
}
