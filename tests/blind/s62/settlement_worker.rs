use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::thread::JoinHandle;

use idem_scope::scoped_server;
use quarry::kv::SyncVault;

pub struct SettlementLine {
    pub entry_id: String,
    pub account: String,
    pub amount_minor: i64,
}

pub struct SettlementBatch {
    pub merchant_id: String,
    pub file_name: String,
    pub lines: Vec<SettlementLine>,
}

pub struct SettlementWorker {
    book: Arc<SyncVault>,
    ledger: Arc<dyn Ledger>,
    shutdown: Arc<AtomicBool>,
}

pub trait Ledger: Send + Sync {
    fn apply(&self, merchant_id: &str, line: &SettlementLine) -> Vec<u8>;
}

impl SettlementWorker {
    pub fn spawn(self, rx: Receiver<SettlementBatch>) -> JoinHandle<()> {
        std::thread::Builder::new()
            .name("settlements".into())
            .spawn(move || self.run(rx))
            .expect("spawn settlement thread")
    }

    fn run(&self, rx: Receiver<SettlementBatch>) {
        'batches: while let Ok(batch) = rx.recv() {
            log::info!("applying {} lines from {}", batch.lines.len(), batch.file_name);
            for line in &batch.lines {
                let sk = match scoped_server(&batch.merchant_id, "settlement-bot", "settlements.apply", &line.entry_id) {
                    Ok(sk) => sk,
                    Err(err) => {
                        log::warn!("skipping entry {}: {}", line.entry_id, err);
                        continue;
                    }
                };
                if !self.book.begin(sk.storage_key()) {
                    continue;
                }
                if self.shutdown.load(Ordering::Relaxed) {
                    log::info!("shutdown requested, stopping after {}", line.entry_id);
                    break 'batches;
                }
                let applied = self.ledger.apply(&batch.merchant_id, line);
                self.book.complete(sk.storage_key(), applied);
            }
        }
    }
}
