//! Outbound client for the partner bank's payout API. Our own caller's
//! key header is forwarded so the bank deduplicates on its side too.

use std::time::Duration;

use curl::easy::{Easy, List};
use idem_scope::{scoped, ClaimGuard};
use sluice::claims::ClaimBook;

use crate::auth::Caller;
use crate::payouts::PayoutInstruction;

pub struct PartnerBank {
    base_url: String,
    api_token: String,
    inflight: ClaimBook,
}

#[derive(Debug)]
pub enum PartnerError {
    Scope(String),
    Busy,
    Transport(curl::Error),
    Status(u32, Vec<u8>),
}

impl From<curl::Error> for PartnerError {
    fn from(e: curl::Error) -> Self {
        PartnerError::Transport(e)
    }
}

impl PartnerBank {
    pub fn send_payout(&self, caller: &Caller, headers: &http::HeaderMap, instr: &PayoutInstruction) -> Result<Vec<u8>, PartnerError> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| PartnerError::Scope("missing Idempotency-Key".into()))?;
        let wire_key = key.replace(['\r', '\n'], "");
        let sk = scoped(&caller.tenant_id, &caller.user_id, "partner.payout", key).map_err(|e| PartnerError::Scope(e.to_string()))?;

        if !self.inflight.try_claim(sk.storage_key(), Duration::from_secs(120)).unwrap_or(false) {
            return Err(PartnerError::Busy);
        }
        let inflight = self.inflight.clone();
        let release_key = sk.storage_key().to_owned();
        let guard = ClaimGuard::new(move || inflight.release_blocking(&release_key));

        let body = serde_json::to_vec(instr).map_err(|e| PartnerError::Scope(e.to_string()))?;
        let mut list = List::new();
        list.append(&format!("Authorization: Bearer {}", self.api_token))?;
        list.append(&format!("Idempotency-Key: {}", wire_key))?;
        list.append("Content-Type: application/json")?;

        let mut easy = Easy::new();
        easy.url(&format!("{}/v3/payouts", self.base_url))?;
        easy.post(true)?;
        easy.post_fields_copy(&body)?;
        easy.http_headers(list)?;
        easy.timeout(Duration::from_secs(20))?;

        let mut response = Vec::new();
        {
            let mut transfer = easy.transfer();
            transfer.write_function(|chunk| {
                response.extend_from_slice(chunk);
                Ok(chunk.len())
            })?;
            transfer.perform()?;
        }
        let code = easy.response_code()?;
        if !(200..300).contains(&code) {
            return Err(PartnerError::Status(code, response));
        }
        self.inflight.complete_blocking(sk.storage_key(), &response);
        guard.complete();
        Ok(response)
    }
}
