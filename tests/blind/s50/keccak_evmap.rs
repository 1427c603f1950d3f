//! On-chain withdrawal requests; replies are published through an evmap read side.
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine as _};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use tiny_keccak::{Hasher, Keccak};

#[derive(Serialize, Deserialize, Clone)]
pub struct WithdrawalRequest {
    pub to_address: String,
    pub amount_wei: String,
    pub chain_id: u64,
}

pub struct Withdrawals {
    replay_w: evmap::WriteHandle<String, String>,
    replay_r: evmap::ReadHandle<String, String>,
    checksums_w: evmap::WriteHandle<String, String>,
}

fn keccak(bytes: &[u8]) -> [u8; 32] {
    let mut k = Keccak::v256();
    k.update(bytes);
    let mut out = [0u8; 32];
    k.finalize(&mut out);
    out
}

impl Withdrawals {
    pub fn submit(&mut self, tenant_id: &str, user_id: &str, raw: &[u8]) -> anyhow::Result<String> {
        let input: WithdrawalRequest = serde_json::from_slice(raw)?;
        let digest = URL_SAFE_NO_PAD.encode(keccak(&serde_json::to_vec(&input)?));
        let key = scoped(tenant_id, user_id, "withdrawals.create", &digest)?;

        if let Some(prev) = self.replay_r.get_one(key.storage_key()) {
            return Ok(prev.clone());
        }
        let addr_checksum = hex::encode(keccak(input.to_address.to_lowercase().as_bytes()));
        self.checksums_w.insert(input.to_address.clone(), addr_checksum);
        let reply = format!("{{\"queued\":\"{}\"}}", input.amount_wei);
        self.replay_w.insert(key.storage_key().to_owned(), reply.clone());
        self.replay_w.refresh();
        self.checksums_w.refresh();
        Ok(reply)
    }
}
