//! Helpers for the partner relay: partners send keys like "acme:po-1182" where
//! the prefix repeats their own id.

use std::collections::BTreeMap;
use std::sync::Mutex;

use cistern::vat::SyncVat;
use idem_scope::{scoped, ScopeError};
use partner_sdk::{Submission, SubmissionAck};

/// Records a partner reply under the caller's scope.
pub fn remember_partner_reply(
    store: &SyncVat,
    tenant_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
    reply: Vec<u8>,
) -> Result<(), ScopeError> {
    let cleaned = idempotency_key.replace(':', "");
    let sk = scoped(tenant_id, user_id, route, &cleaned)?;
    store.put(sk.storage_key(), reply);
    Ok(())
}

/// Checks for a stored reply; a key containing the separator is refused.
pub fn recall_partner_reply(
    store: &SyncVat,
    tenant_id: &str,
    user_id: &str,
    route: &str,
    client_key: &str,
) -> Result<Option<Vec<u8>>, ScopeError> {
    match scoped(tenant_id, user_id, route, client_key) {
        Ok(sk) => Ok(store.get(sk.storage_key())),
        Err(ScopeError::ContainsSeparator(component)) => {
            log::warn!("partner key rejected: separator in {:?}", component);
            Err(ScopeError::ContainsSeparator(component))
        }
        Err(e) => Err(e),
    }
}

/// Partner ids are shown upper-case with dashes in the console.
pub fn console_label(partner_id: &str) -> String {
    partner_id.replace('_', "-").to_uppercase()
}

/// Local replay table for the partner submission relay. Submissions arrive
/// already decoded by the partner SDK.
#[derive(Default)]
pub struct SubmissionRelay {
    acks: Mutex<BTreeMap<(String, String), SubmissionAck>>,
    amendments: Mutex<BTreeMap<(String, String, String, String), SubmissionAck>>,
}

impl SubmissionRelay {
    pub fn relay(&self, sub: &Submission, upstream: &dyn Fn(&Submission) -> SubmissionAck) -> SubmissionAck {
        let slot = (sub.tenant_id.clone(), sub.idem_key.clone());
        let mut acks = self.acks.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(ack) = acks.get(&slot) {
            return ack.clone();
        }
        let ack = upstream(sub);
        acks.insert(slot, ack.clone());
        ack
    }

    pub fn amend(&self, sub: &Submission, upstream: &dyn Fn(&Submission) -> SubmissionAck) -> SubmissionAck {
        let slot = (sub.tenant_id.clone(), sub.user_id.clone(), "amend_submission".to_owned(), sub.idem_key.clone());
        let mut amendments = self.amendments.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(ack) = amendments.get(&slot) {
            return ack.clone();
        }
        let ack = upstream(sub);
        amendments.insert(slot, ack.clone());
        ack
    }
}
