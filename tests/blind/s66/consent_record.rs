use std::sync::Arc;

use idem_scope::{scoped, Problem, ScopeError};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::consent::{ConsentForm, ConsentLedger};
use crate::oidc::{IdToken, Verifier};

pub struct ConsentApi {
    stash: Arc<Stash>,
    ledger: Arc<ConsentLedger>,
    verifier: Arc<Verifier>,
}

impl ConsentApi {
    pub async fn record(&self, call: Call) -> Answer {
        let Some(token): Option<IdToken> = call.header("Authorization").and_then(|h| self.verifier.verify_bearer(h)) else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        // Auth0 subjects look like "google-oauth2|1093..."; the provider prefix is dropped.
        let user_id = token.sub.replacen('|', "", 1);
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(&token.org_id, &user_id, "consent_record", key) {
            Ok(s) => s,
            Err(ScopeError::ContainsSeparator(component)) => {
                return Answer::problem(Problem::invalid_key(&format!("{component:?} contains a separator")));
            }
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(form) = call.form::<ConsentForm>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let purpose = form.purpose.to_ascii_lowercase().replace(' ', "_");
        match self.ledger.record(&token.org_id, &user_id, &purpose, form.granted).await {
            Ok(entry) => {
                let body = entry.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }
}
