//! Outbound client for the university's bank (ACH refunds to students).
//! The bank's API is itself idempotent; it gets a digest of the portal's
//! scoped key (stable across attempts), and a reference header that carries
//! the student's retry token and attempt number for the bank's support desk.

use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use idem_scope::ScopedKey;
use reqwest_middleware::ClientWithMiddleware;
use satchel::pouch::Pouch;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Serialize)]
struct AchRefund<'a> {
    account_token: &'a str,
    amount_cents: i64,
    memo: String,
}

#[derive(Deserialize, Serialize)]
pub struct BankReceipt {
    pub trace_number: String,
    pub status: String,
}

pub struct BankClient {
    pub http: ClientWithMiddleware,
    pub base_url: String,
    pub receipts: Pouch,
}

impl BankClient {
    /// `client_key` is the student's Idempotency-Key from the portal request;
    /// `sk` is the portal's scoped key for that request.
    pub async fn refund(&self, sk: &ScopedKey, client_key: &str, account_token: &str, amount_cents: i64) -> anyhow::Result<BankReceipt> {
        if let Some(raw) = self.receipts.get(sk.storage_key()).await? {
            return Ok(serde_json::from_slice(&raw)?);
        }
        let bank_key = format!("{:x}", Sha256::digest(sk.storage_key().as_bytes()));
        let mut attempt = 0u32;
        let send = || {
            attempt += 1;
            let reference = format!("{client_key}/{attempt}");
            let bank_key = bank_key.clone();
            let body = AchRefund { account_token, amount_cents, memo: format!("tuition refund {client_key}") };
            async move {
                self.http
                    .post(format!("{}/v2/ach/refunds", self.base_url))
                    .header("Idempotency-Key", bank_key)
                    .header("X-Portal-Reference", reference)
                    .json(&body)
                    .timeout(Duration::from_secs(20))
                    .send()
                    .await?
                    .error_for_status()?
                    .json::<BankReceipt>()
                    .await
                    .map_err(anyhow::Error::from)
            }
        };
        let receipt = send.retry(ExponentialBuilder::default().with_max_times(3)).await?;
        self.receipts.put(sk.storage_key(), &serde_json::to_vec(&receipt)?).await?;
        Ok(receipt)
    }
}
