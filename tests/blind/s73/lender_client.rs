//! Outbound client for the ag lender's API. The lender supports
//! Idempotency-Key too; we forward the member's key on member-initiated
//! calls and mint one for our own batch calls.

use furrow::egress::{HeaderBag, Outbound, Reply};
use furrow::Petition;
use serde::Serialize;

pub struct LenderApi {
    http: Outbound,
    partner_id: String,
}

#[derive(Serialize)]
pub struct CreditCheck<'a> {
    pub member_no: &'a str,
    pub amount_cents: i64,
}

impl LenderApi {
    /// Member-initiated credit check: the member's own key goes upstream.
    pub async fn credit_check(&self, p: &Petition, body: &CreditCheck<'_>) -> Result<Reply, LenderError> {
        let mut headers = HeaderBag::new();
        if let Some(k) = p.header("Idempotency-Key") {
            headers.insert("Idempotency-Key", k);
            headers.insert("X-Partner-Request", &format!("{}:{}", self.partner_id, k));
        }
        Ok(self.http.post_json("/v3/credit-checks", body, headers).await?)
    }

    /// Nightly sweep of interest accruals; we are the client here.
    pub async fn post_accruals(&self, batch: &[Accrual]) -> Result<Reply, LenderError> {
        let run_id = uuid::Uuid::new_v4().to_string();
        let mut headers = HeaderBag::new();
        headers.insert("Idempotency-Key", &run_id);
        tracing::info!(%run_id, count = batch.len(), "posting accruals");
        Ok(self.http.post_json("/v3/accruals", &batch, headers).await?)
    }
}
