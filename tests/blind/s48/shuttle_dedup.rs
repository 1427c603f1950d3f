use heed::types::Bytes;
use heed::{Database, Env, EnvOpenOptions};
use serde::Deserialize;
use shuttle_runtime::{SecretStore, Service};
use std::net::SocketAddr;
use std::sync::Arc;

#[derive(Deserialize)]
struct Signup {
    email: String,
}

#[derive(Clone)]
struct Identity {
    tenant_id: String,
    user_id: String,
}

struct DedupService {
    env: Env,
    seen: Database<Bytes, Bytes>,
    secrets: SecretStore,
}

impl DedupService {
    fn replay(&self, who: &Identity, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let slot = serde_cbor::to_vec(&(who.tenant_id.as_str(), key))?;
        let rtxn = self.env.read_txn()?;
        Ok(self.seen.get(&rtxn, &slot)?.map(|b| b.to_vec()))
    }

    fn signup_key(&self, headers: &rama::http::HeaderMap) -> Option<String> {
        headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned)
    }

    async fn signup(&self, who: Identity, headers: rama::http::HeaderMap, body: Signup) -> anyhow::Result<Vec<u8>> {
        let key = self.signup_key(&headers).ok_or_else(|| anyhow::anyhow!("missing key"))?;
        if let Some(prev) = self.replay(&who, &key)? {
            return Ok(prev);
        }
        let api = self.secrets.get("MAIL_API").unwrap_or_default();
        tracing::debug!(user = %who.user_id, api_len = api.len(), "signing up {}", body.email);
        Ok(format!("{{\"email\":\"{}\"}}", body.email).into_bytes())
    }
}

#[shuttle_runtime::async_trait]
impl Service for DedupService {
    async fn bind(self, _addr: SocketAddr) -> Result<(), shuttle_runtime::Error> {
        let _svc = Arc::new(self);
        Ok(())
    }
}

#[shuttle_runtime::main]
async fn main(#[shuttle_runtime::Secrets] secrets: SecretStore) -> Result<DedupService, shuttle_runtime::Error> {
    let env = unsafe { EnvOpenOptions::new().max_dbs(4).open("/data/dedup").map_err(anyhow::Error::from)? };
    let mut wtxn = env.write_txn().map_err(anyhow::Error::from)?;
    let seen = env.create_database(&mut wtxn, Some("seen")).map_err(anyhow::Error::from)?;
    wtxn.commit().map_err(anyhow::Error::from)?;
    Ok(DedupService { env, seen, secrets })
}
