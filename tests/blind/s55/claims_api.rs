use ferrum::idem::{ClaimHandle, Claims as ClaimTable};
use ferrum::kv::SharedKv;
use idem_scope::{scoped, Fingerprint};
use keystone::Auth;
use relay::http::HeaderMap;

pub struct ClaimsApi {
    table: ClaimTable,
    legacy: SharedKv,
    insurer: insurer::Client,
}

fn idem_header(headers: &HeaderMap) -> anyhow::Result<String> {
    headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| anyhow::anyhow!("400 Idempotency-Key required"))
}

pub fn normalize(idem_key: &str) -> String {
    idem_key.trim().replacen('/', "", 8)
}

impl ClaimsApi {
    pub async fn file_claim(&self, auth: &Auth, headers: &HeaderMap, raw_body: Vec<u8>) -> anyhow::Result<Vec<u8>> {
        let key = idem_header(headers)?;
        let sk = scoped(&auth.tenant_id, &auth.user_id, "claims.file", &key)?;
        let fingerprint = Fingerprint::of("claims.file", &raw_body);

        let handle: ClaimHandle = self.table.claim(&sk, &fingerprint).await?;
        let claim = serde_json::from_slice::<insurer::ClaimForm>(&raw_body)?;
        let filed = self.insurer.file(&auth.tenant_id, &claim).await?;
        let out = serde_json::to_vec(&filed)?;
        handle.complete(&out).await?;
        Ok(out)
    }

    pub async fn legacy_status(&self, auth: &Auth, headers: &HeaderMap) -> anyhow::Result<Option<Vec<u8>>> {
        let key = idem_header(headers)?;
        let slot = format!("{t}|{p}|{r}|{k}", t = auth.tenant_id, p = auth.user_id, r = "claims.status", k = key);
        Ok(self.legacy.get(&slot).await?)
    }

    pub async fn amend_claim(&self, auth: &Auth, idem_key: &str, claim_id: &str, amendment: Vec<u8>) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&auth.tenant_id, &auth.user_id, "claims.amend", &normalize(idem_key))?;
        let fingerprint = Fingerprint::of("claims.amend", &amendment);
        let handle = self.table.claim(&sk, &fingerprint).await?;
        let amended = self.insurer.amend(claim_id, &amendment).await;
        let out = serde_json::to_vec(&amended).unwrap_or_default();
        handle.complete(&out).await?;
        tracing::info!(claim_id, "amended");
        let _ = self.insurer.notify_adjuster(claim_id).await?;
        Ok(out)
    }
}
