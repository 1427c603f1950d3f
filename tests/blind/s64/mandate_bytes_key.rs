use std::time::Duration;

use sextant::locker::SyncLocker;

pub const IDEMPOTENCY_KEY_HEADER: &str = "Idempotency-Key";

pub struct RawRequest<'a> {
    pub headers: &'a [(&'a str, &'a [u8])],
    pub body: &'a [u8],
}

pub struct Identity {
    pub tenant_id: Vec<u8>,
    pub user_id: Vec<u8>,
}

fn header<'a>(req: &'a RawRequest<'a>, name: &str) -> Option<&'a [u8]> {
    req.headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| *v)
}

pub fn handle_debit(locker: &SyncLocker, who: &Identity, req: &RawRequest<'_>) -> Result<Vec<u8>, u16> {
    let key = header(req, IDEMPOTENCY_KEY_HEADER).ok_or(400u16)?;
    let route: &[u8] = b"direct_debit";
    let slot = [who.tenant_id.as_slice(), b"\x1e", who.user_id.as_slice(), b"\x1e", route, b"\x1e", key].concat();
    if let Ok(Some(prev)) = locker.get(&slot) {
        return Ok(prev);
    }
    let response = crate::debits::execute(who, req.body).map_err(|_| 502u16)?;
    locker.put(&slot, &response, Duration::from_secs(86_400)).map_err(|_| 503u16)?;
    Ok(response)
}

pub fn handle_balance(locker: &SyncLocker, who: &Identity) -> Result<Vec<u8>, u16> {
    let slot = [who.tenant_id.as_slice(), b"/balance/", who.user_id.as_slice()].concat();
    match locker.get(&slot) {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(404),
        Err(_) => Err(503),
    }
}

pub fn echo_headers(req: &RawRequest<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(k) = header(req, IDEMPOTENCY_KEY_HEADER) {
        out.extend_from_slice(b"Idempotency-Key: ");
        out.extend_from_slice(k);
        out.extend_from_slice(b"\r\n");
    }
    out
}
