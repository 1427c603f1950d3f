//! Lighting desk bridge (blocking): the desk PC pushes a cue list for the
//! evening's show. Loading runs vendor code that has been known to panic.
use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use idem_scope::scoped;
use loft::batten::SyncBatten;
use proscenium::threaded::{Curtain, Cue};
use proscenium::pass::Staff;

const LEASE: Duration = Duration::from_secs(120);
const KEEP: Duration = Duration::from_secs(12 * 3600);

pub fn push_cues(cue: &Cue, staff: &Staff, batten: &SyncBatten, desk: &crate::lx::Desk) -> Curtain {
    let Some(key) = cue.header("Idempotency-Key") else {
        return Curtain::new(400).text("Idempotency-Key is required");
    };
    let cues = match crate::lx::CueList::parse(cue.body()) {
        Ok(c) => c,
        Err(e) => return Curtain::new(400).text(&e.to_string()),
    };
    let sk = match scoped(&staff.org_id, &staff.user_id, "push_cues", key) {
        Ok(sk) => sk,
        Err(e) => return Curtain::new(400).text(&e.to_string()),
    };
    if !batten.claim(sk.storage_key(), LEASE).unwrap_or(false) {
        return Curtain::new(409).text("cue list is already being loaded");
    }
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| desk.load(&cues)));
    match outcome {
        Ok(Ok(loaded)) => {
            let _ = batten.complete(sk.storage_key(), loaded.summary_bytes(), KEEP);
            Curtain::bytes(200, loaded.summary_bytes())
        }
        Ok(Err(e)) => {
            let _ = batten.release(sk.storage_key());
            Curtain::new(422).text(&e.to_string())
        }
        Err(payload) => {
            let _ = batten.release(sk.storage_key());
            panic::resume_unwind(payload)
        }
    }
}
