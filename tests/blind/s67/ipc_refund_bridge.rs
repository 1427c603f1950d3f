use dunlin::kv::BlockingKv;
use idem_scope::{scoped, scoped_server};
use ipc_channel::ipc::IpcReceiver;
use plover::auth::Caller;
use plover::blocking::{Request, Response};

pub struct RefundEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub amount_minor: u64,
}

pub struct RefundBridge {
    pub kv: BlockingKv,
}

impl RefundBridge {
    pub fn http_refund(&self, req: &Request, caller: &Caller) -> Response {
        let Some(key) = req.header("Idempotency-Key") else { return Response::status(400) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "refund", key) else { return Response::status(400) };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()) {
            return Response::ok(prev);
        }
        let r = crate::refunds::issue(&caller.tenant_id, &caller.user_id, req.body());
        self.kv.put(sk.storage_key(), r.to_bytes()).ok();
        Response::created(r.to_bytes())
    }

    pub fn pump(&self, rx: IpcReceiver<RefundEvent>) {
        while let Ok(ev) = rx.recv() {
            let Ok(sk) = scoped(&ev.tenant_id, &ev.user_id, "refund", &ev.event_id) else { continue };
            if self.kv.exists(sk.storage_key()).unwrap_or(false) {
                continue;
            }
            let r = crate::refunds::issue_amount(&ev.tenant_id, &ev.user_id, ev.amount_minor);
            self.kv.put(sk.storage_key(), r.to_bytes()).ok();
        }
    }

    pub fn pump_reversals(&self, rx: IpcReceiver<RefundEvent>) {
        while let Ok(ev) = rx.recv() {
            let Ok(sk) = scoped_server(&ev.tenant_id, &ev.user_id, "refund.reverse", &ev.event_id) else { continue };
            if self.kv.exists(sk.storage_key()).unwrap_or(false) {
                continue;
            }
            crate::refunds::reverse(&ev.tenant_id, ev.amount_minor);
            self.kv.put(sk.storage_key(), b"done".to_vec()).ok();
        }
    }
}
