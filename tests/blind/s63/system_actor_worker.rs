use std::sync::Arc;
use std::thread;

use cistern::vat::SyncVat;
use idem_scope::{scoped, ClaimGuard};
use loole::{Receiver, Sender};

/// Commands accepted by the async bulk API and executed off the request path.
pub struct Command {
    pub tenant_id: Option<String>,
    pub submitted_by: Option<String>,
    /// The client's Idempotency-Key, copied from the accepting request.
    pub idempotency_key: String,
    pub op: String,
    pub payload: Vec<u8>,
}

pub enum Outcome {
    Done(Vec<u8>),
    DeadLetter(&'static str),
}

const SYSTEM_ACTOR: &str = "system";

fn execute_one(vat: &Arc<SyncVat>, exec: &bulk::Executor, tenant_id: &str, actor: &str, cmd: &Command) -> Result<Vec<u8>, &'static str> {
    let sk = scoped(tenant_id, actor, &cmd.op, &cmd.idempotency_key).map_err(|_| "unscopable command")?;
    if let Some(done) = vat.get(sk.storage_key()) {
        return Ok(done);
    }
    vat.claim(sk.storage_key()).map_err(|_| "command already running")?;
    let held = sk.storage_key().to_owned();
    let release_vat = Arc::clone(vat);
    let guard = ClaimGuard::new(move || {
        release_vat.release(&held);
    });

    let out = exec.run(tenant_id, &cmd.op, &cmd.payload).map_err(|_| "execution failed")?;
    vat.complete(sk.storage_key(), out.clone());
    guard.complete();
    Ok(out)
}

pub fn spawn_executor(vat: Arc<SyncVat>, exec: Arc<bulk::Executor>, rx: Receiver<Command>, results: Sender<Outcome>) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        while let Ok(cmd) = rx.recv() {
            let Some(tenant_id) = cmd.tenant_id.as_deref() else {
                let _ = results.send(Outcome::DeadLetter("command without tenant"));
                continue;
            };
            let actor = cmd.submitted_by.as_deref().unwrap_or(SYSTEM_ACTOR);
            let outcome = match execute_one(&vat, &exec, tenant_id, actor, &cmd) {
                Ok(out) => Outcome::Done(out),
                Err(reason) => Outcome::DeadLetter(reason),
            };
            if results.send(outcome).is_err() {
                break;
            }
        }
    })
}
