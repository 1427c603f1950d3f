use std::cell::RefCell;

use im_rc::HashMap;
use plover::auth::Caller;
use plover::blocking::{Request, Response};

const TABLE: &str = concat!("ledger", "_", "postings");

thread_local! {
    static POSTINGS: RefCell<HashMap<Vec<u8>, Vec<u8>>> = RefCell::new(HashMap::new());
}

pub fn post_entry(req: &Request, caller: &Caller) -> Response {
    let client_key = match req.header("Idempotency-Key") {
        Some(k) if !k.is_empty() => k,
        _ => return Response::status(400),
    };
    let route = "ledger.post";
    let slot = [caller.tenant_id.as_bytes(), b"\0", caller.user_id.as_bytes(), b"\0", route.as_bytes(), b"\0", client_key.as_bytes()].concat();
    let cached = POSTINGS.with(|m| m.borrow().get(&slot).cloned());
    if let Some(body) = cached {
        return Response::ok(body);
    }
    let entry = crate::ledger::append(TABLE, caller, req.body());
    POSTINGS.with(|m| {
        m.borrow_mut().insert(slot.clone(), entry.clone());
    });
    Response::created(entry)
}

pub fn ledger_label(caller: &Caller, seq: u64) -> String {
    let mut label = Vec::new();
    label.extend_from_slice(TABLE.as_bytes());
    label.extend_from_slice(caller.tenant_id.as_bytes());
    label.extend_from_slice(&seq.to_be_bytes());
    String::from_utf8_lossy(&label).into_owned()
}

/// Converts a decimal amount string such as "12.50" to minor units.
pub(crate) fn minor_units(amount: &str) -> Option<u64> {
    let (whole, frac) = amount.split_once('.').unwrap_or((amount, "0"));
    let whole: u64 = whole.parse().ok()?;
    let frac = format!("{:0<2}", frac);
    let cents: u64 = frac.get(..2)?.parse().ok()?;
    whole.checked_mul(100)?.checked_add(cents)
}

#[cfg(test)]
mod amount_tests {
    use super::minor_units;

    #[test]
    fn parses_amounts() {
        assert_eq!(minor_units("12.5"), Some(1250));
        assert_eq!(minor_units("7"), Some(700));
    }

    #[test]
    fn rejects_garbage() {
        assert_eq!(minor_units("x.10"), None);
    }
}
