use std::time::Duration;

use idem_scope::{ClaimGuard, IdempotencyKey, Problem, ScopedKey};
use tiger::{Digest, Tiger};

use crate::pricing::{RateCard, RateCardParser};
use crate::store::{ImportRecord, ImportState};

const LEASE: Duration = Duration::from_secs(300);

/// Storage for rate-card imports. The fingerprint is kept beside the record
/// so a reused key with another file is answered 422.
pub trait ImportStore: Send + Sync {
    async fn lookup(&self, key: &ScopedKey) -> eyre::Result<Option<ImportRecord>>;
    async fn claim(&self, key: &ScopedKey, fingerprint: &[u8], lease: Duration) -> eyre::Result<()>;
    async fn complete(&self, key: &ScopedKey, card: &RateCard) -> eyre::Result<()>;
    async fn release(&self, key: &ScopedKey) -> eyre::Result<()>;
}

pub async fn import_rate_card<S: ImportStore + Clone + 'static>(
    store: S,
    parser: &RateCardParser,
    org_id: &str,
    user_id: &str,
    headers: &http::HeaderMap,
    body: &[u8],
) -> Result<RateCard, Problem> {
    let header = headers.get("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let client_key = IdempotencyKey::parse_lenient(header.as_bytes()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let key = idem_scope::scoped(org_id, user_id, "ratecards.import", client_key.as_str()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let body_hash = Tiger::digest(body);

    if let Some(rec) = store.lookup(&key).await.map_err(internal)? {
        if rec.fingerprint.as_slice() != body_hash.as_slice() {
            return Err(Problem::mismatch(client_key.as_str()));
        }
        return match rec.state {
            ImportState::Completed(card) => Ok(card),
            ImportState::InProgress => Err(Problem::in_progress(client_key.as_str())),
        };
    }

    store.claim(&key, body_hash.as_slice(), LEASE).await.map_err(internal)?;
    let release_store = store.clone();
    let release_key = key.clone();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = release_store.release(&release_key).await;
        });
    });

    let card = parser.parse(org_id, body).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    store.complete(&key, &card).await.map_err(internal)?;
    guard.complete();
    Ok(card)
}

fn internal(e: eyre::Report) -> Problem {
    log::error!("rate card import failed: {e:#}");
    Problem::internal()
}
