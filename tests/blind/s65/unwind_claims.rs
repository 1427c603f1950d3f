use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use idem_scope::{scoped, Problem};
use kestrel::blocking::{Request, Response};
use tessera::kv::BlockingKv;
use tessera::slots::Slots;

use crate::labels::{LabelPrinter, ShippingLabel};

pub struct LabelApi {
    kv: Arc<BlockingKv>,
    slots: Arc<Slots>,
    printer: Arc<LabelPrinter>,
}

impl LabelApi {
    pub fn print_label(&self, req: &Request) -> Response {
        let (Some(who), Some(retry)) = (req.identity(), req.header("Idempotency-Key")) else {
            return Response::problem(Problem::missing_key());
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "print_label", retry) else {
            return Response::status(400);
        };
        if self.kv.claim(key.storage_key(), std::time::Duration::from_secs(60)).is_err() {
            return Response::problem(Problem::in_progress(retry));
        }
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| self.printer.render(req.body()).expect("renderer accepts validated input")));
        let label: ShippingLabel = match outcome {
            Ok(label) => label,
            Err(payload) => {
                let _ = self.kv.release(key.storage_key());
                panic::resume_unwind(payload);
            }
        };
        let _ = self.kv.complete(key.storage_key(), &label.pdf);
        Response::bytes(201, label.pdf)
    }

    pub fn reprint(&self, req: &Request) -> Response {
        let (Some(who), Some(retry)) = (req.identity(), req.header("Idempotency-Key")) else {
            return Response::problem(Problem::missing_key());
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "reprint_label", retry) else {
            return Response::status(400);
        };
        let slot = match self.slots.reserve(key.storage_key()) {
            Ok(Some(slot)) => slot,
            Ok(None) => return Response::problem(Problem::in_progress(retry)),
            Err(_) => return Response::status(503),
        };
        let Some(label_id) = req.path_param("label") else {
            return Response::status(404);
        };
        let label = self.printer.reprint(&label_id);
        slot.complete(&label.pdf);
        Response::bytes(200, label.pdf)
    }

    pub fn void_label(&self, req: &Request) -> Response {
        let (Some(who), Some(retry)) = (req.identity(), req.header("Idempotency-Key")) else {
            return Response::problem(Problem::missing_key());
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "void_label", retry) else {
            return Response::status(400);
        };
        if self.kv.claim(key.storage_key(), std::time::Duration::from_secs(60)).is_err() {
            return Response::problem(Problem::in_progress(retry));
        }
        match self.printer.void(req.path_param("label").as_deref().unwrap_or_default()) {
            Ok(()) => {
                let _ = self.kv.complete(key.storage_key(), b"voided");
                Response::status(204)
            }
            Err(e) => {
                let _ = self.kv.release(key.storage_key());
                Response::text(409, e.to_string())
            }
        }
    }
}
