//! Frost and hail alerts from the weather feed are pushed through an
//! in-process disruptor ring to the orchard-protection dispatcher. Members
//! can also request a frost-protection run by hand (blocking furrow stack).

use std::sync::Arc;

use bushel::crock::SyncCrock;
use disruptor::{build_single_producer, BusySpin, Producer, Sequence};
use furrow::still::{Petition, Ruling};
use idem_scope::{scoped, scoped_server};

#[derive(Default, Clone)]
pub struct Alert {
    pub event_id: String,
    pub org_id: String,
    pub user_id: String,
    pub block: String,
    pub severity: u8,
}

pub struct Frost {
    pub crock: SyncCrock,
    pub fans: FanController,
}

pub fn start(frost: Arc<Frost>) -> impl Producer<Alert> {
    let f = frost.clone();
    let handler = move |a: &Alert, _seq: Sequence, _end: bool| {
        if a.severity < 2 {
            return;
        }
        let Ok(key) = scoped(&a.org_id, &a.user_id, "frost_run", &a.event_id) else { return };
        if f.crock.exists(key.storage_key()).unwrap_or(true) {
            return;
        }
        let run = f.fans.start_block(&a.block);
        let _ = f.crock.put(key.storage_key(), &run.to_bytes());
        if let Ok(note) = scoped_server(&a.org_id, &a.user_id, "frost_notice", &a.event_id) {
            let _ = f.crock.put(note.storage_key(), b"sent");
        }
    };
    build_single_producer(1024, Alert::default, BusySpin).handle_events_with(handler).build()
}

pub fn request_run(frost: &Frost, p: &Petition) -> Ruling {
    let (Some(org_id), Some(user_id), Some(k), Some(block)) =
        (p.header("X-Org"), p.header("X-User"), p.header("Idempotency-Key"), p.query("block"))
    else {
        return Ruling::status(400);
    };
    let Ok(key) = scoped(org_id, user_id, "frost_run", k) else {
        return Ruling::status(400);
    };
    if let Ok(Some(prev)) = frost.crock.get(key.storage_key()) {
        return Ruling::status(200).bytes(prev);
    }
    let run = frost.fans.start_block(block);
    let _ = frost.crock.put(key.storage_key(), &run.to_bytes());
    Ruling::status(201).bytes(run.to_bytes())
}
