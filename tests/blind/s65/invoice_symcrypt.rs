use std::sync::Arc;

use base64_simd::URL_SAFE_NO_PAD;
use idem_scope::scoped;
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::{Deserialize, Serialize};
use symcrypt::hash::sha256;
use tessera::kv::Kv;

use crate::invoicing::{InvoiceLedger, Issued};

#[derive(Deserialize, Serialize)]
pub struct IssueInvoice {
    pub customer_id: String,
    pub lines: Vec<(String, i64)>,
    pub due_days: u16,
}

pub struct InvoiceApi {
    kv: Arc<Kv>,
    etags: Arc<Kv>,
    ledger: Arc<InvoiceLedger>,
}

impl InvoiceApi {
    pub async fn issue(&self, head: Head, Json(input): Json<IssueInvoice>) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let canonical = match kestrel::json::to_vec(&input) {
            Ok(v) => v,
            Err(_) => return Outcome::status(Status::BAD_REQUEST),
        };
        let token = URL_SAFE_NO_PAD.encode_to_string(sha256(&canonical));
        let Ok(key) = scoped(&who.org_id, &who.user_id, "issue_invoice", &token) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let issued: Issued = self.ledger.issue(&who.org_id, &input.customer_id, &input.lines, input.due_days).await;
        let body = kestrel::json::to_vec(&issued).unwrap_or_default();
        let etag = URL_SAFE_NO_PAD.encode_to_string(sha256(&body));
        let _ = self.etags.put(&format!("etag/{}", issued.invoice_id), etag.clone().into_bytes()).await;
        let _ = self.kv.put(key.storage_key(), body.clone()).await;
        Outcome::bytes(Status::CREATED, body).with_header("ETag", &etag)
    }
}
