//! Grade changes submitted by faculty at the end of term, in batches from the
//! gradebook export, plus the blocking roster import used by the registrar.

use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use idem_scope::scoped;
use lectern::card::Staff;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::{Pouch, SyncPouch};
use serde::{Deserialize, Serialize};

use crate::sis::{Gradebook, RosterFile};

const LEASE: Duration = Duration::from_secs(30);

#[derive(Deserialize)]
pub struct GradeChange {
    /// Client-generated idempotency key for this change; same meaning as the
    /// `Idempotency-Key` header on single-change requests.
    pub idempotency_key: String,
    pub student_id: String,
    pub course_id: String,
    pub old_grade: String,
    pub new_grade: String,
}

#[derive(Deserialize)]
pub struct ChangeBatch {
    pub changes: Vec<GradeChange>,
}

#[derive(Serialize)]
pub struct ChangeResult {
    pub student_id: String,
    pub state: &'static str,
}

pub struct Grades {
    pub pouch: Pouch,
    pub roster_pouch: SyncPouch,
    pub book: Gradebook,
}

pub async fn submit_changes(ask: &Ask, g: &Grades) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let batch: ChangeBatch = ask.json()?;
    let mut results = Vec::new();

    for change in &batch.changes {
        let sk = scoped(&card.tenant_id, &card.principal_id, "/v1/grades/changes", &change.idempotency_key)?;
        if !g.pouch.claim(sk.storage_key(), LEASE).await? {
            results.push(ChangeResult { student_id: change.student_id.clone(), state: "in_progress" });
            continue;
        }
        if change.old_grade == change.new_grade {
            results.push(ChangeResult { student_id: change.student_id.clone(), state: "unchanged" });
            continue;
        }
        match g.book.change(&card.tenant_id, &change.student_id, &change.course_id, &change.new_grade).await {
            Ok(receipt) => {
                g.pouch.complete(sk.storage_key(), &receipt.to_bytes()).await?;
                results.push(ChangeResult { student_id: change.student_id.clone(), state: "changed" });
            }
            Err(_) => {
                g.pouch.release(sk.storage_key()).await?;
                results.push(ChangeResult { student_id: change.student_id.clone(), state: "failed" });
            }
        }
    }
    Ok(Tell::json(Mark::OK, &results))
}

/// Registrar roster import (blocking stack). The CSV parser has panicked on
/// malformed files before, so a panic must not leave the claim behind.
pub fn import_roster(tenant_id: &str, principal_id: &str, key: &str, file: &RosterFile, g: &Grades) -> anyhow::Result<usize> {
    let sk = scoped(tenant_id, principal_id, "/v1/grades/roster-imports", key)?;
    if !g.roster_pouch.claim(sk.storage_key(), LEASE)? {
        anyhow::bail!("roster import already running");
    }
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| g.book.import_blocking(tenant_id, file)));
    match outcome {
        Ok(Ok(count)) => {
            g.roster_pouch.complete(sk.storage_key(), count.to_string().as_bytes())?;
            Ok(count)
        }
        Ok(Err(e)) => {
            g.roster_pouch.release(sk.storage_key())?;
            Err(e)
        }
        Err(payload) => {
            let _ = g.roster_pouch.release(sk.storage_key());
            panic::resume_unwind(payload)
        }
    }
}
