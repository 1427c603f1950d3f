use dunlin::kv::BlockingKv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::blocking::{Request, Response};

pub struct Delivery {
    pub delivery_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub body: Vec<u8>,
}

pub struct Invoices {
    pub kv: BlockingKv,
}

impl Invoices {
    pub fn create(&self, req: &Request, caller: &Caller) -> Response {
        let Some(key) = req.header("Idempotency-Key") else { return Response::status(400) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "invoice.create", key) else {
            return Response::status(400);
        };
        let slot = format!("req/{}", sk.storage_key());
        if let Ok(Some(prev)) = self.kv.get(&slot) {
            return Response::ok(prev);
        }
        let inv = crate::invoices::create(caller, req.body());
        self.kv.put(&slot, inv.to_bytes()).ok();
        Response::created(inv.to_bytes())
    }

    pub fn on_delivery(&self, d: &Delivery) {
        let slot = format!("evt/{}/{}/{}", d.tenant_id, d.user_id, d.delivery_id);
        if self.kv.exists(&slot).unwrap_or(false) {
            return;
        }
        crate::invoices::import(&d.tenant_id, &d.body);
        self.kv.put(&slot, b"imported".to_vec()).ok();
    }

    pub fn on_redelivery(&self, d: &Delivery) {
        let Ok(sk) = scoped(&d.tenant_id, &d.user_id, "invoice.import", &d.delivery_id) else { return };
        let slot = format!("s:{}", sk.storage_key());
        if !self.kv.exists(&slot).unwrap_or(false) {
            crate::invoices::import(&d.tenant_id, &d.body);
            self.kv.put(&slot, b"imported".to_vec()).ok();
        }
    }
}
