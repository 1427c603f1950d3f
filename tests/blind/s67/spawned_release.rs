use std::thread;

use dunlin::kv::BlockingKv;
use idem_scope::{scoped, ClaimGuard};
use plover::auth::Caller;
use plover::blocking::{Request, Response};

pub fn create_batch(req: &Request, caller: &Caller, kv: &BlockingKv) -> Result<Response, crate::errors::ApiError> {
    let key = req.header("Idempotency-Key").ok_or(crate::errors::ApiError::MissingKey)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "batch.create", key)?;
    if !kv.claim(sk.storage_key())? {
        return Ok(Response::status(409));
    }
    let release_kv = kv.clone();
    let release_slot = sk.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        thread::spawn(move || {
            release_kv.release(&release_slot).ok();
        });
    });
    let batch = crate::batches::validate(req.body())?;
    let created = crate::batches::create(caller, batch)?;
    kv.complete(sk.storage_key(), created.to_bytes())?;
    guard.complete();
    Ok(Response::created(created.to_bytes()))
}

pub fn label_batch(req: &Request, caller: &Caller, kv: &BlockingKv) -> Result<Response, crate::errors::ApiError> {
    let key = req.header("Idempotency-Key").ok_or(crate::errors::ApiError::MissingKey)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "batch.label", key)?;
    if !kv.claim(sk.storage_key())? {
        return Ok(Response::status(409));
    }
    let labelled = crate::batches::label(caller, req.body());
    kv.complete(sk.storage_key(), labelled.to_bytes())?;
    Ok(Response::ok(labelled.to_bytes()))
}

/// Page sizes accepted by list endpoints of this module.
pub(crate) fn clamp_page_size(requested: Option<u32>) -> u32 {
    match requested {
        Some(0) => 1,
        Some(n) if n > 200 => 200,
        Some(n) => n,
        None => 50,
    }
}

#[cfg(test)]
mod paging_tests {
    use super::clamp_page_size;

    #[test]
    fn page_size_bounds() {
        assert_eq!(clamp_page_size(Some(0)), 1);
        assert_eq!(clamp_page_size(Some(500)), 200);
    }

    #[test]
    fn page_size_default() {
        assert_eq!(clamp_page_size(None), 50);
        assert_eq!(clamp_page_size(Some(20)), 20);
    }
}
