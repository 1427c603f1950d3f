//! `agency-sdk`: helpers shared by the agency portal backends. Published as a
//! library; the handlers that call it live in other repositories.

use std::time::Duration;

use ballast::hold::Hold;
use bytes::Bytes;

#[derive(Debug, displaydoc::Display)]
pub enum SdkError {
    /// reply store unavailable: {0}
    Store(String),
    /// upstream refused the call: {0}
    Upstream(String),
}

/// Looks up the stored reply of an earlier attempt.
pub async fn lookup_reply(
    hold: &Hold,
    account_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
) -> Result<Option<Bytes>, SdkError> {
    let slot = format!("{account_id}:{user_id}:{route}:{idempotency_key}");
    hold.get(&slot).await.map_err(|e| SdkError::Store(e.to_string()))
}

/// Keeps a reply for a day.
pub async fn keep_reply(hold: &Hold, scoped_slot: &idem_scope::ScopedKey, body: Bytes) -> Result<(), SdkError> {
    hold.put_ttl(scoped_slot.storage_key(), &body, Duration::from_secs(86_400))
        .await
        .map_err(|e| SdkError::Store(e.to_string()))
}

/// Calls the port community system, passing the caller's key along so the
/// PCS can de-duplicate on its side.
pub async fn forward_to_pcs(
    client: &pcs_client::Client,
    path: &str,
    idempotency_key: &str,
    body: Bytes,
) -> Result<Bytes, SdkError> {
    let req = client
        .post(path)
        .header("Idempotency-Key", idempotency_key)
        .body(body);
    req.send().await.map_err(|e| SdkError::Upstream(format!("{path} with key {idempotency_key}: {e}")))
}
