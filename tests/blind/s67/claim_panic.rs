use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use dunlin::kv::BlockingKv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::blocking::{Request, Response};

pub fn close_account(req: &Request, caller: &Caller, kv: &BlockingKv) -> Response {
    let Some(key) = req.header("Idempotency-Key") else {
        return Response::status(400);
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "account.close", key) else {
        return Response::status(400);
    };
    if !kv.claim(sk.storage_key()).unwrap_or(false) {
        return Response::status(409);
    }
    let balance = crate::accounts::balance(caller);
    if balance.is_negative() {
        panic!("closing account {} with negative balance", caller.user_id);
    }
    let closed = crate::accounts::close(caller);
    kv.complete(sk.storage_key(), closed.to_bytes()).ok();
    Response::ok(closed.to_bytes())
}

pub fn reopen_account(req: &Request, caller: &Caller, kv: &BlockingKv) -> Response {
    let Some(key) = req.header("Idempotency-Key") else {
        return Response::status(400);
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "account.reopen", key) else {
        return Response::status(400);
    };
    if !kv.claim(sk.storage_key()).unwrap_or(false) {
        return Response::status(409);
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| crate::accounts::reopen(caller)));
    match outcome {
        Ok(reopened) => {
            kv.complete(sk.storage_key(), reopened.to_bytes()).ok();
            Response::ok(reopened.to_bytes())
        }
        Err(panic) => {
            kv.release(sk.storage_key()).ok();
            resume_unwind(panic)
        }
    }
}
