use std::cell::RefCell;
use std::rc::Rc;

use im_rc::HashMap;
use plover::auth::Caller;
use plover::blocking::{Request, Response};

#[derive(Clone, Default)]
pub struct ReplayCache {
    inner: Rc<RefCell<HashMap<Vec<u8>, Vec<u8>>>>,
}

impl ReplayCache {
    fn slot(&self, caller: &Caller, route: &str, client_key: &str) -> Vec<u8> {
        let mut slot = Vec::with_capacity(64);
        slot.extend_from_slice(caller.tenant_id.as_bytes());
        slot.push(0);
        slot.extend_from_slice(caller.user_id.as_bytes());
        slot.push(0);
        slot.extend_from_slice(route.as_bytes());
        slot.push(0);
        slot.extend_from_slice(client_key.as_bytes());
        slot
    }

    pub fn serve(&self, req: &Request, caller: &Caller, route: &str) -> Response {
        let Some(client_key) = req.header("Idempotency-Key") else {
            return Response::status(400);
        };
        let slot = self.slot(caller, route, client_key);
        if let Some(body) = self.inner.borrow().get(&slot) {
            return Response::ok(body.clone()).with_header("Idempotent-Replayed", "true");
        }
        let resp = crate::router::dispatch(req, caller);
        if resp.status() < 500 {
            self.inner.borrow_mut().insert(slot, resp.body().to_vec());
        }
        resp
    }
}
