use std::sync::mpsc::Receiver;

use dunlin::kv::BlockingKv;
use idem_scope::scoped;

pub struct Envelope {
    pub tenant_id: String,
    pub user_id: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Envelope {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

pub fn run_import_worker(rx: Receiver<Envelope>, kv: BlockingKv) {
    for env in rx.iter() {
        let Some(key) = env.header("Idempotency-Key") else { continue };
        let Ok(sk) = scoped(&env.tenant_id, &env.user_id, "contacts.import", key) else { continue };
        if !kv.claim(sk.storage_key()).unwrap_or(false) {
            continue;
        }
        let rows = match crate::contacts::parse_csv(&env.body) {
            Ok(rows) => rows,
            Err(e) => {
                eprintln!("bad csv from {}: {}", env.tenant_id, e);
                continue;
            }
        };
        let summary = crate::contacts::upsert_all(&env.tenant_id, rows);
        kv.complete(sk.storage_key(), summary.to_bytes()).ok();
    }
}

pub fn run_tag_worker(rx: Receiver<Envelope>, kv: BlockingKv) {
    for env in rx.iter() {
        let Some(key) = env.header("Idempotency-Key") else { continue };
        let Ok(sk) = scoped(&env.tenant_id, &env.user_id, "contacts.tag", key) else { continue };
        if !kv.claim(sk.storage_key()).unwrap_or(false) {
            continue;
        }
        if let Err(e) = crate::contacts::apply_tags(&env.tenant_id, &env.body) {
            eprintln!("tagging failed: {}", e);
            kv.release(sk.storage_key()).ok();
            continue;
        }
        kv.complete(sk.storage_key(), b"ok".to_vec()).ok();
    }
}
