//! Consumer for EDI envelopes relayed by the message broker from the EDI
//! translator (COPARN/CODECO). The translator fills the envelope fields.

use ballast::hold::ByteHold;
use ballast::vault::Vault;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tideway::{Consumer, Delivery};

#[derive(Deserialize)]
pub struct EdiEnvelope {
    pub account_id: String,
    pub user_id: String,
    pub operation: String,
    pub idem_key: String,
    pub payload: Vec<u8>,
}

impl EdiEnvelope {
    fn slot(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(160);
        out.extend_from_slice(self.account_id.as_bytes());
        out.push(0x1e);
        out.extend_from_slice(self.user_id.as_bytes());
        out.push(0x1e);
        out.extend_from_slice(self.operation.as_bytes());
        out.push(0x1e);
        out.extend_from_slice(self.idem_key.as_bytes());
        out
    }
}

async fn archive_raw(archive: &Vault, payload: &[u8]) -> anyhow::Result<()> {
    let digest = Sha256::digest(payload);
    let path = format!("edi/raw/{}.edi", hex::encode(&digest[..16]));
    archive.put(&path, payload).await?;
    Ok(())
}

pub async fn run(mut consumer: Consumer, replies: ByteHold, archive: Vault) -> anyhow::Result<()> {
    while let Some(d) = consumer.next().await {
        let env: EdiEnvelope = match serde_json::from_slice(d.body()) {
            Ok(env) => env,
            Err(e) => {
                log::warn!("delivery {} is not an envelope: {e}", d.id());
                d.dead_letter().await?;
                continue;
            }
        };
        archive_raw(&archive, &env.payload).await?;

        let slot = env.slot();
        if replies.get(&slot).await?.is_some() {
            d.ack().await?;
            continue;
        }
        let outcome = edi_core::apply(&env.operation, &env.payload).await?;
        replies.put(&slot, &outcome.to_bytes()).await?;
        d.ack().await?;
    }
    Ok(())
}
