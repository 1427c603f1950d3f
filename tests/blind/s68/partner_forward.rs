use cobble::vault::Vault;
use idem_scope::scoped_server;
use nyquest::r#async::Request;

/// Forwards carrier status webhooks to the partner's API.
pub struct Forwarder {
    pub vault: Vault,
    pub client: nyquest::AsyncClient,
}

pub struct CarrierHook {
    pub delivery_id: String,
    pub tenant_id: String,
    pub carrier: String,
    pub body: Vec<u8>,
}

impl Forwarder {
    pub async fn forward(&self, hook: &CarrierHook) -> anyhow::Result<()> {
        let sk = scoped_server(&hook.tenant_id, &hook.carrier, "carrier.forward", &hook.delivery_id)?;
        if !self.vault.set_nx(sk.storage_key(), hook.delivery_id.as_bytes()).await? {
            return Ok(());
        }
        let req = Request::post("/v1/shipments/status")
            .with_header("Idempotency-Key", hook.delivery_id.as_str())
            .with_header("Content-Type", "application/json")
            .with_body_bytes(hook.body.clone());
        let resp = self.client.request(req).await?;
        anyhow::ensure!(resp.status().is_successful(), "partner returned {}", resp.status());
        Ok(())
    }

    pub async fn forward_all(&self, hooks: Vec<CarrierHook>) -> usize {
        let mut ok = 0;
        for h in &hooks {
            match self.forward(h).await {
                Ok(()) => ok += 1,
                Err(e) => log::warn!("forward {} failed: {e}", h.delivery_id),
            }
        }
        ok
    }
}
