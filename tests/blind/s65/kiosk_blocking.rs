use std::sync::Arc;

use idem_scope::{scoped, Problem};
use kestrel::blocking::{Request, Response};
use tessera::kv::BlockingKv;

use crate::kiosk::{Kiosk, Voucher};

pub struct VoucherKiosk {
    kv: Arc<BlockingKv>,
    kiosk: Arc<Kiosk>,
}

impl VoucherKiosk {
    pub fn issue(&self, req: &Request) -> Response {
        let Some(who) = req.identity() else {
            return Response::status(401);
        };
        let Some(raw) = req.header("Idempotency-Key") else {
            return Response::problem(Problem::missing_key());
        };
        if raw.contains('\0') {
            return Response::problem(Problem::invalid_key("reserved character in key"));
        }
        // Kiosk firmware 2.x pads the key with record separators.
        let retry = raw.trim_end_matches('\x1e');
        let key = match scoped(&who.tenant_id, &who.user_id, "issue_voucher", retry) {
            Ok(k) => k,
            Err(e) => return Response::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()) {
            return Response::bytes(200, prev);
        }
        let voucher: Voucher = self.kiosk.issue(&who.tenant_id);
        let bytes = kestrel::json::to_vec(&voucher).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), &bytes);
        Response::bytes(201, bytes)
    }
}

impl VoucherKiosk {
    pub fn status(&self, req: &Request) -> Response {
        let Some(who) = req.identity() else {
            return Response::status(401);
        };
        match self.kiosk.health(&who.tenant_id) {
            Ok(h) if h.paper_low => Response::text(200, "paper low"),
            Ok(_) => Response::text(200, "ok"),
            Err(e) => Response::text(503, e.to_string()),
        }
    }
}
