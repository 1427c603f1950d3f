//! Spreads idempotency records over several tank shards and stores large
//! responses in chunks.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};

pub struct ShardedTanks {
    shards: Vec<Tank>,
}

impl ShardedTanks {
    fn by_client_key(&self, client_key: &str) -> &Tank {
        let n = self.shards.len() as u64;
        &self.shards[(seahash::hash(client_key.as_bytes()) % n) as usize]
    }
}

pub async fn fetch_usage_export(intake: Intake, who: Customer, tanks: &ShardedTanks) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "usage-export", key)?;
    let tank = tanks.by_client_key(key);
    let digest_key = hex::encode(libcrux_sha2::sha256(ck.storage_key().as_bytes()));
    if let Some(manifest) = tank.get(&digest_key).await? {
        let parts: u32 = String::from_utf8_lossy(&manifest).parse().unwrap_or(0);
        let mut body = Vec::new();
        for i in 0..parts {
            body.extend(tank.get(&format!("{digest_key}#chunk{i}")).await?.unwrap_or_default());
        }
        return Ok(Outflow::bytes(Code::OK, body));
    }
    let export = crate::ami::exports().usage_csv(&who.tenant_id, &who.user_id).await?;
    let chunks: Vec<&[u8]> = export.chunks(256 * 1024).collect();
    for (i, chunk) in chunks.iter().enumerate() {
        tank.put(&format!("{digest_key}#chunk{i}"), chunk).await?;
    }
    tank.put(&digest_key, chunks.len().to_string().as_bytes()).await?;
    Ok(Outflow::bytes(Code::OK, export))
}
