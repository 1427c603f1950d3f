//! Bulk adjustments: one HTTP call carries many lines, each line has its own
//! client key (`line_key`) and is recorded on the docket.

use granary::docket::Docket;
use idem_scope::scoped;
use portcullis::take::Json;
use portcullis::who::Member;
use portcullis::{Reply, Status};

#[derive(serde::Deserialize)]
pub struct Line {
    /// The client's Idempotency-Key for this line.
    pub line_key: String,
    pub account: String,
    pub delta: i64,
}

#[derive(serde::Deserialize)]
pub struct Batch {
    pub lines: Vec<Line>,
}

pub async fn adjust(docket: &Docket, member: Member, Json(batch): Json<Batch>) -> Reply {
    let mut applied = 0usize;
    for line in &batch.lines {
        if line.account.is_empty() {
            continue;
        }
        let Ok(key) = scoped(&member.org_id, &member.user_id, "ledger.adjust", &line.line_key) else { continue };
        if docket.mark_in_progress(key.storage_key()).await.is_err() {
            continue;
        }
        if line.delta == 0 {
            continue;
        }
        match crate::ledger::adjust(&line.account, line.delta).await {
            Ok(receipt) => {
                let _ = docket.mark_done(key.storage_key(), &receipt).await;
                applied += 1;
            }
            Err(_) => {
                let _ = docket.abandon(key.storage_key()).await;
            }
        }
    }
    Reply::json(Status::Ok, &serde_json::json!({ "applied": applied }))
}

pub async fn reopen(docket: &Docket, member: Member, Json(batch): Json<Batch>) -> Reply {
    for line in &batch.lines {
        let Ok(key) = scoped(&member.org_id, &member.user_id, "ledger.reopen", &line.line_key) else { continue };
        if docket.mark_in_progress(key.storage_key()).await.is_err() {
            continue;
        }
        match crate::ledger::reopen(&line.account).await {
            Ok(r) => { let _ = docket.mark_done(key.storage_key(), &r).await; }
            Err(_) => { let _ = docket.abandon(key.storage_key()).await; }
        }
    }
    Reply::status(Status::Ok)
}
