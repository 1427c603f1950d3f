//! Re-send trip receipts by e-mail (`POST /v1/receipts/resend`).

use std::time::Duration;

use hopper::bay::Bay;
use idem_scope::Problem;
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::mail::Mailer;

#[derive(Decode)]
pub struct ResendRequest {
    pub receipt_id: String,
    pub email: Option<String>,
}

pub struct Receipts {
    pub sent: Bay,
    pub mailer: Mailer,
    pub api_base: String,
}

impl Receipts {
    pub async fn resend(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let key = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: ResendRequest = hail.json()?;

        let mut parts: Vec<&str> = Vec::with_capacity(4);
        parts.push(&rider.tenant_id);
        parts.push(&rider.user_id);
        parts.push("receipts.resend");
        parts.push(key);
        let slot = parts.join("\u{1e}");
        if self.sent.exists(&slot).await? {
            return Ok(Answer::status(Code::Accepted));
        }

        let url_path = ["v1", "tenants", rider.tenant_id.as_str(), "receipts", req.receipt_id.as_str()].join("/");
        let pdf_link = format!("{}/{}", self.api_base, url_path);
        self.mailer
            .send_receipt(req.email.as_deref(), &rider.user_id, &pdf_link)
            .await?;
        self.sent.put_ttl(&slot, b"sent".to_vec(), Duration::from_secs(3600)).await?;
        Ok(Answer::status(Code::Accepted))
    }
}
