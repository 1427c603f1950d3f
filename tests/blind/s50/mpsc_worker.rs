//! CSV import jobs: handlers enqueue, a std::thread worker runs them.
use idem_scope::scoped;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::collections::BTreeMap;
use std::thread::JoinHandle;

pub struct ImportJob {
    pub tenant_id: String,
    pub user_id: String,
    /// Client idempotency key copied from the request's Idempotency-Key header.
    pub idempotency_key: String,
    pub csv: String,
}

#[derive(Default)]
pub struct JobRecords {
    rows: Mutex<BTreeMap<String, &'static str>>,
}

impl JobRecords {
    pub fn mark_in_progress(&self, key: &str) -> bool {
        let mut rows = self.rows.lock().unwrap();
        if rows.contains_key(key) {
            return false;
        }
        rows.insert(key.to_owned(), "in_progress");
        true
    }
    pub fn mark_done(&self, key: &str) {
        self.rows.lock().unwrap().insert(key.to_owned(), "completed");
    }
}

pub fn spawn_worker(rx: Receiver<ImportJob>, records: Arc<JobRecords>, done: Sender<usize>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        for job in rx {
            let Ok(key) = scoped(&job.tenant_id, &job.user_id, "imports.csv", &job.idempotency_key) else {
                continue;
            };
            if !records.mark_in_progress(key.storage_key()) {
                continue;
            }
            let mut rows = 0usize;
            for line in job.csv.lines().skip(1) {
                let Some((sku, qty)) = line.split_once(',') else { continue };
                let Ok(qty) = qty.trim().parse::<u32>() else {
                    log::warn!("bad qty for {sku}");
                    break;
                };
                rows += qty as usize;
            }
            if rows == 0 {
                continue;
            }
            records.mark_done(key.storage_key());
            let _ = done.send(rows);
        }
    })
}
