//! Replay index for the promoter API. Keys are JSON5-encoded tuples so that
//! operators can read them in the batten console.
use std::time::Duration;

use loft::batten::Batten;
use proscenium::pass::Promoter;
use proscenium::{Cue, Flub};

const ROUTE: &str = "/v1/promoter/holds";
const KEEP: Duration = Duration::from_secs(3 * 86_400);

fn client_key(cue: &Cue) -> Result<&str, Flub> {
    cue.header("Idempotency-Key")
        .ok_or_else(|| Flub::bad_request("Idempotency-Key is required"))
}

pub async fn remember_answer(cue: &Cue, promoter: &Promoter, batten: &Batten, answer: &[u8]) -> Result<(), Flub> {
    let key = client_key(cue)?;
    let slot = serde_json5::to_string(&(&promoter.account_id, ROUTE, key)).map_err(Flub::internal)?;
    batten.put(&slot, answer.to_vec(), KEEP).await?;
    Ok(())
}

pub async fn remember_answer_v2(cue: &Cue, promoter: &Promoter, batten: &Batten, answer: &[u8]) -> Result<(), Flub> {
    let key = client_key(cue)?;
    let slot = serde_json5::to_string(&(&promoter.account_id, &promoter.client_id, ROUTE, key)).map_err(Flub::internal)?;
    batten.put(&slot, answer.to_vec(), KEEP).await?;
    Ok(())
}

/// Human-readable description for the audit trail.
pub fn describe(cue: &Cue, promoter: &Promoter) -> String {
    let key = cue.header("Idempotency-Key").unwrap_or("-");
    serde_json5::to_string(&(&promoter.account_id, key)).unwrap_or_default()
}
