use anyhow::{ensure, Result};
use idem_scope::scoped;

pub struct KycRequest<'a> {
    pub headers: &'a [(String, String)],
    pub org_id: &'a str,
    pub user_id: &'a str,
    pub document: &'a [u8],
}

pub struct KycService {
    checks: CheckRecords,
    vendor: KycVendor,
}

const MAX_DOC: usize = 8 * 1024 * 1024;

impl KycService {
    pub async fn verify(&self, req: KycRequest<'_>) -> Result<String> {
        let check_ref = req.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("X-Idempotency-Key")).map(|(_, v)| v.as_str()).unwrap_or("");
        ensure!(!check_ref.is_empty(), "X-Idempotency-Key is required");
        let key = scoped(req.org_id, req.user_id, "kyc.verify", check_ref)?;
        self.checks.start(&key).await?;
        ensure!(req.document.len() <= MAX_DOC, "document too large");
        let verdict = self.vendor.submit(req.org_id, req.document).await?;
        self.checks.finish(&key, &verdict).await?;
        Ok(verdict)
    }
}
