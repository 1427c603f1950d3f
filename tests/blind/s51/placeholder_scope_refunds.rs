//! Refunds and dispute evidence. Service-to-service callers authenticate with
//! an mTLS identity that has no end-user principal.
use http::HeaderMap;

pub struct Peer {
    pub org_id: String,
    pub user_id: String,
    pub service: Option<String>,
}

pub struct Refunds {
    idem: foyer::Cache<String, String>,
}

fn client_key(headers: &HeaderMap) -> anyhow::Result<String> {
    Ok(headers
        .get("Idempotency-Key")
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
        .to_str()?
        .to_owned())
}

impl Refunds {
    pub async fn refund_s2s(&self, peer: &Peer, headers: &HeaderMap, charge: &str) -> anyhow::Result<String> {
        let k = client_key(headers)?;
        let key = idem_scope::scoped(&peer.org_id, "", "refunds.create", &k)?;
        if let Some(r) = self.idem.get(key.storage_key()) {
            return Ok(r.value().clone());
        }
        let refund = issue_refund(charge).await?;
        self.idem.insert(key.storage_key().to_owned(), refund.clone());
        Ok(refund)
    }

    pub async fn refund(&self, peer: &Peer, headers: &HeaderMap, charge: &str) -> anyhow::Result<String> {
        let k = client_key(headers)?;
        let key = idem_scope::scoped(&peer.org_id, &peer.user_id, "refunds.create", &k)?;
        if let Some(r) = self.idem.get(key.storage_key()) {
            return Ok(r.value().clone());
        }
        let refund = issue_refund(charge).await?;
        self.idem.insert(key.storage_key().to_owned(), refund.clone());
        Ok(refund)
    }

    pub async fn submit_evidence(&self, peer: &Peer, headers: &HeaderMap, dispute: &str) -> anyhow::Result<String> {
        let k = client_key(headers)?;
        let key = idem_scope::scoped(&peer.org_id, &peer.user_id, "default", &k)?;
        if let Some(r) = self.idem.get(key.storage_key()) {
            return Ok(r.value().clone());
        }
        let service = peer.service.as_deref().unwrap_or("none");
        tracing::info!(%service, %dispute, "evidence submitted");
        let id = format!("ev_{dispute}");
        self.idem.insert(key.storage_key().to_owned(), id.clone());
        Ok(id)
    }
}

async fn issue_refund(charge: &str) -> anyhow::Result<String> {
    Ok(format!("re_{charge}"))
}
