use std::sync::Arc;
use std::time::Duration;

use hawk::{DigestAlgorithm, Header, PayloadHasher, RequestBuilder};
use lintel::mw::{Chain, Wrap};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use slog::{debug, Logger};

use crate::auth::HawkKeys;

/// Answers repeated pre-authorisation holds from the stash before the
/// handler chain runs. Writes happen in the hold handler.
pub struct PreauthReplay {
    stash: Arc<Stash>,
    keys: Arc<HawkKeys>,
    log: Logger,
}

impl PreauthReplay {
    fn verify(&self, call: &Call) -> Option<String> {
        let header: Header = call.header("Authorization")?.strip_prefix("Hawk ")?.parse().ok()?;
        let id = header.id.clone()?;
        let creds = self.keys.credentials(&id)?;
        let body_hash = PayloadHasher::hash("application/json", DigestAlgorithm::Sha256, call.body()).ok()?;
        let request = RequestBuilder::new(call.method(), call.host(), call.port(), call.path())
            .hash(&body_hash[..])
            .request();
        if request.validate_header(&header, &creds.key, Duration::from_secs(60)) {
            Some(id)
        } else {
            None
        }
    }
}

impl Wrap for PreauthReplay {
    async fn wrap(&self, call: Call, next: Chain<'_>) -> Answer {
        let Some(hawk_id) = self.verify(&call) else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let request_id = call.header("X-Request-Id").unwrap_or("-").to_owned();
        debug!(self.log, "preauth"; "request_id" => &request_id, "hawk_id" => &hawk_id);

        if let Some(key) = call.header("Idempotency-Key") {
            match self.stash.get(key).await {
                Ok(Some(saved)) => {
                    return Answer::bytes(Code::OK, saved).with_header("Idempotent-Replayed", "true");
                }
                Ok(None) => {}
                Err(_) => return Answer::status(Code::SERVICE_UNAVAILABLE),
            }
        }
        next.run(call.with_principal(hawk_id)).await
    }
}
