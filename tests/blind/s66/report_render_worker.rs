use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use idem_scope::{scoped, Problem, ScopedKey};
use lintel::blocking::{Answer, Call, Code};
use skerry::stash::BlockingStash;

use crate::reports::{Page, Renderer, ReportSpec};

const LEASE: Duration = Duration::from_secs(600);

pub struct RenderJob {
    slot: ScopedKey,
    spec: ReportSpec,
}

pub struct ReportApi {
    stash: Arc<BlockingStash>,
    jobs: chan::Sender<RenderJob>,
}

impl ReportApi {
    pub fn request(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(&who.tenant_id, &who.user_id, "report_render", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(done)) = self.stash.get(slot.storage_key()) {
            return Answer::bytes(Code::OK, done);
        }
        let Ok(spec) = call.json::<ReportSpec>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        self.jobs.send(RenderJob { slot, spec });
        Answer::status(Code::ACCEPTED)
    }
}

pub fn spawn_renderer(rx: chan::Receiver<RenderJob>, stash: Arc<BlockingStash>, renderer: Arc<Renderer>, stop: Arc<AtomicBool>) {
    thread::spawn(move || {
        'drain: for job in rx.iter() {
            match stash.claim(job.slot.storage_key(), LEASE) {
                Ok(true) => {}
                Ok(false) | Err(_) => continue,
            }
            let mut rendered: Vec<Page> = Vec::with_capacity(job.spec.sections.len());
            for section in &job.spec.sections {
                if stop.load(Ordering::Relaxed) {
                    break 'drain;
                }
                rendered.push(renderer.render(section));
            }
            let pdf = renderer.assemble(&rendered);
            let _ = stash.complete(job.slot.storage_key(), &pdf);
        }
    });
}
