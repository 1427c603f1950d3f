//! Component hygiene for the kiosk bridge library (no callers in this crate).
use std::time::Duration;

use idem_scope::scoped;
use loft::batten::Batten;

const KEEP: Duration = Duration::from_secs(24 * 3600);
const RESERVED: [char; 6] = ['\0', '\u{1e}', '|', ':', '/', '#'];

#[derive(Debug, thiserror::Error)]
pub enum HygieneError {
    #[error("component contains a reserved character")]
    Reserved,
    #[error(transparent)]
    Scope(#[from] idem_scope::ScopeError),
    #[error(transparent)]
    Store(#[from] loft::LoftError),
}

pub fn check_component(c: &str) -> Result<&str, HygieneError> {
    if c.contains(RESERVED) {
        return Err(HygieneError::Reserved);
    }
    Ok(c)
}

pub async fn store_reply(batten: &Batten, tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str, reply: Vec<u8>) -> Result<(), HygieneError> {
    let cleaned = idempotency_key.replace('|', "");
    let sk = scoped(check_component(tenant_id)?, check_component(user_id)?, check_component(route)?, &cleaned)?;
    batten.put(sk.storage_key(), reply, KEEP).await?;
    Ok(())
}

/// Label for log lines; never used as a key.
pub fn log_label(user_id: &str) -> String {
    user_id.replace(':', "_")
}
