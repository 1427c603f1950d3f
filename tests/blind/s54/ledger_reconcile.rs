use std::sync::Arc;

use idem_scope::{scoped, Fingerprint};
use ledgerkit::idem::{IdemStore, StoredResponse};
use uuid::Uuid;

pub struct Adjustment {
    pub tenant_id: String,
    pub user_id: String,
    pub account_id: String,
    pub delta_minor: i64,
}

pub struct Reconciler {
    idem: Arc<IdemStore>,
    ledger: Arc<ledger_client::Client>,
}

impl Reconciler {
    /// Operator-submitted adjustment from the back-office UI (sends Idempotency-Key).
    pub async fn submit(&self, req: &gatehouse::http::Request, adj: &Adjustment) -> anyhow::Result<StoredResponse> {
        let key = req.header_str("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let sk = scoped(&adj.tenant_id, &adj.user_id, "ledger.adjust", key)?;
        let fp = Fingerprint::of("ledger.adjust", adj.account_id.as_bytes());
        self.post(&sk, &fp, adj).await
    }

    /// Nightly drift repair: one adjustment per drifting account.
    pub async fn repair_drift(&self, drifts: Vec<Adjustment>) -> anyhow::Result<usize> {
        let next_key = || Uuid::new_v4().simple().to_string();
        let mut posted = 0;
        for adj in &drifts {
            let sk = scoped(&adj.tenant_id, &adj.user_id, "ledger.adjust", &next_key())?;
            let fp = Fingerprint::of("ledger.adjust", adj.account_id.as_bytes());
            self.post(&sk, &fp, adj).await?;
            posted += 1;
        }
        Ok(posted)
    }

    async fn post(&self, sk: &idem_scope::ScopedKey, fp: &Fingerprint, adj: &Adjustment) -> anyhow::Result<StoredResponse> {
        if let Some(prev) = self.idem.lookup(sk, fp).await? {
            return Ok(prev);
        }
        let entry = self.ledger.adjust(&adj.account_id, adj.delta_minor).await?;
        let resp = StoredResponse::json(201, &entry);
        self.idem.save(sk, fp, &resp).await?;
        Ok(resp)
    }
}
