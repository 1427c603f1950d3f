use std::sync::Arc;

use idem_scope::Problem;
use kestrel::extract::{FromRequest, Head};
use kestrel::{Outcome, Status};
use tessera::kv::Kv;

/// `Idempotency-Key` as sent by the client, unparsed.
pub struct IdemHeader(pub String);

impl FromRequest for IdemHeader {
    type Rejection = Outcome;

    fn from_request(head: &Head) -> Result<Self, Outcome> {
        head.headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(|v| IdemHeader(v.trim().to_owned()))
            .ok_or_else(|| Outcome::problem(Problem::missing_key()))
    }
}

pub struct ReceiptApi {
    receipts: Arc<Kv>,
}

impl ReceiptApi {
    /// Lets a client ask what happened to an earlier attempt.
    pub async fn attempt_status(&self, head: Head, key: IdemHeader) -> Outcome {
        if head.identity().is_none() {
            return Outcome::status(Status::UNAUTHORIZED);
        }
        match self.receipts.lookup(&key.0).await {
            Ok(Some(bytes)) => Outcome::bytes(Status::OK, bytes),
            Ok(None) => Outcome::problem(Problem::invalid_key(&format!("no attempt recorded for {}", key.0))),
            Err(e) => {
                log::warn!("receipt store unavailable: {e}");
                Outcome::status(Status::SERVICE_UNAVAILABLE)
            }
        }
    }
}
