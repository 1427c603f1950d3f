use anyhow::{bail, Context, Result};
use idem_scope::scoped;
use tokio::sync::mpsc;

pub struct ProvisionRequest {
    pub tenant_id: String,
    pub user_id: String,
    /// Idempotency-Key header of the originating API call.
    pub request_key: String,
    pub plan: String,
}

pub struct Provisioner {
    idem: ProvisionIdem,
    cloud: CloudApi,
}

impl Provisioner {
    pub fn spawn(self: std::sync::Arc<Self>, mut rx: mpsc::Receiver<ProvisionRequest>) {
        tokio::spawn(async move {
            while let Some(req) = rx.recv().await {
                let me = self.clone();
                tokio::spawn(async move {
                    if let Err(e) = me.provision(req).await {
                        tracing::error!(error = ?e, "provisioning failed");
                    }
                });
            }
        });
    }

    async fn provision(&self, req: ProvisionRequest) -> Result<()> {
        let key = scoped(&req.tenant_id, &req.user_id, "workspaces.provision", &req.request_key)?;
        self.idem.claim(&key).await.context("claiming provision key")?;
        if req.plan.is_empty() {
            bail!("empty plan for tenant {}", req.tenant_id);
        }
        let ws = self.cloud.create_workspace(&req.tenant_id, &req.plan).await.context("cloud create")?;
        self.idem.complete(&key, &ws.id).await?;
        Ok(())
    }
}
