use dunlin::kv::BlockingKv;
use idem_scope::{scoped, scoped_server};
use ipc_channel::ipc::IpcReceiver;

pub struct SettlementNotice {
    pub notice_id: String,
    pub merchant_id: String,
    pub acquirer_id: String,
    pub batch: Vec<u8>,
}

/// Settlement notices arrive only from the acquirer bridge; no HTTP route writes these stores.
pub struct SettlementInbox {
    pub notices: BlockingKv,
    pub corrections: BlockingKv,
}

impl SettlementInbox {
    pub fn run(&self, rx: IpcReceiver<SettlementNotice>) {
        while let Ok(n) = rx.recv() {
            let Ok(sk) = scoped(&n.merchant_id, &n.acquirer_id, "settlement.notice", &n.notice_id) else { continue };
            if self.notices.exists(sk.storage_key()).unwrap_or(false) {
                eprintln!("notice {} already applied", n.notice_id);
                continue;
            }
            crate::settlement::apply(&n.merchant_id, &n.batch);
            self.notices.put(sk.storage_key(), n.notice_id.clone().into_bytes()).ok();
        }
    }

    pub fn run_corrections(&self, rx: IpcReceiver<SettlementNotice>) {
        while let Ok(n) = rx.recv() {
            let Ok(sk) = scoped_server(&n.merchant_id, &n.acquirer_id, "settlement.correct", &n.notice_id) else {
                continue;
            };
            if !self.corrections.exists(sk.storage_key()).unwrap_or(false) {
                crate::settlement::correct(&n.merchant_id, &n.batch);
                self.corrections.put(sk.storage_key(), b"1".to_vec()).ok();
            }
        }
    }
}
