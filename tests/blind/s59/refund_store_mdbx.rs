use std::path::Path;
use std::sync::OnceLock;

use libmdbx::{Database, NoWriteMap, WriteFlags};
use pencil::{Pencil, PencilResult, Request, Response};

use crate::accounts::caller_from;
use crate::refunds::{issue_refund, RefundForm};

static DB: OnceLock<Database<NoWriteMap>> = OnceLock::new();

const REPLAY_TABLE: &str = "refund_replays";

pub fn open(dir: &Path) -> Result<(), libmdbx::Error> {
    let db = Database::<NoWriteMap>::new().set_max_tables(8).open(dir)?;
    let _ = DB.set(db);
    Ok(())
}

pub fn routes(app: &mut Pencil) {
    app.post("/refunds", "create_refund", create_refund);
}

fn replay_slot(tenant_id: &str, user_id: &str, route: &str, key: &str) -> String {
    [tenant_id, user_id, route, key].join("\u{1e}")
}

fn header_key(request: &Request) -> Option<String> {
    let raw = request.headers().get_raw("Idempotency-Key")?.first()?;
    std::str::from_utf8(raw).ok().map(|s| s.trim().to_owned())
}

fn create_refund(request: &mut Request) -> PencilResult {
    let Some(key) = header_key(request) else {
        return Ok(Response::from("Idempotency-Key header is required").with_status(400));
    };
    let caller = caller_from(request)?;
    let slot = replay_slot(&caller.tenant_id, &caller.user_id, "refund", &key);
    let db = DB.get().expect("database opened at startup");

    {
        let txn = db.begin_ro_txn()?;
        let table = txn.open_table(Some(REPLAY_TABLE))?;
        if let Some(body) = txn.get::<Vec<u8>>(&table, slot.as_bytes())? {
            let mut resp = Response::from(body);
            resp.headers_mut().set_raw("Idempotent-Replayed", vec![b"true".to_vec()]);
            return Ok(resp);
        }
    }

    let form: RefundForm = serde_json::from_slice(&request.get_data())
        .map_err(|e| format!("refund {} rejected: {}", key, e))?;
    let refund = issue_refund(&caller, &form)?;
    let body = serde_json::to_vec(&refund)?;

    let txn = db.begin_rw_txn()?;
    let table = txn.open_table(Some(REPLAY_TABLE))?;
    txn.put(&table, slot.as_bytes(), &body, WriteFlags::NO_OVERWRITE)?;
    txn.commit()?;

    Ok(Response::from(body).with_status(201))
}
