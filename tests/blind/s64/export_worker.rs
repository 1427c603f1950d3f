use std::sync::mpsc::Receiver;
use std::thread;
use std::time::Duration;

use idem_scope::scoped;
use sextant::lease::SyncLeases;
use sextant::locker::SyncLocker;

pub struct ExportRequest {
    pub tenant_id: String,
    pub user_id: String,
    pub idem_key: String,
    pub report: String,
}

pub struct ExportWorker {
    locker: SyncLocker,
    leases: SyncLeases,
    renderer: crate::reports::Renderer,
}

impl ExportWorker {
    pub fn spawn(self, rx: Receiver<ExportRequest>) -> thread::JoinHandle<()> {
        thread::spawn(move || self.run(rx))
    }

    fn run(self, rx: Receiver<ExportRequest>) {
        for req in rx.iter() {
            let Ok(lease) = self.leases.acquire(&format!("export-worker/{}", req.report), Duration::from_secs(30)) else {
                continue;
            };
            let sk = match scoped(&req.tenant_id, &req.user_id, "export", &req.idem_key) {
                Ok(sk) => sk,
                Err(_) => {
                    self.leases.release(lease).ok();
                    continue;
                }
            };
            match self.locker.claim(sk.storage_key(), Duration::from_secs(600)) {
                Ok(true) => {}
                _ => {
                    self.leases.release(lease).ok();
                    continue;
                }
            }
            let rendered = match self.renderer.render(&req.tenant_id, &req.report) {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!(error = %e, report = %req.report, "render failed");
                    self.leases.release(lease).ok();
                    continue;
                }
            };
            self.locker.complete(sk.storage_key(), rendered.as_bytes()).ok();
            self.leases.release(lease).ok();
        }
    }
}
