use dunlin::kv::BlockingKv;
use dunlin::lease::Leases;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::blocking::{Request, Response};

pub fn import_statement(req: &Request, caller: &Caller, kv: &BlockingKv) -> Response {
    let Some(key) = req.header("Idempotency-Key") else {
        return Response::status(400);
    };
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "statement.import", key) {
        Ok(sk) => sk,
        Err(_) => return Response::status(400),
    };
    match kv.set_nx(sk.storage_key(), b"in_progress".to_vec(), 300) {
        Ok(true) => {}
        Ok(false) => return Response::status(409),
        Err(_) => return Response::status(503),
    }
    let text = std::str::from_utf8(req.body()).unwrap();
    let imported = crate::statements::import(caller, text);
    kv.put(sk.storage_key(), imported.to_bytes()).ok();
    Response::created(imported.to_bytes())
}

pub fn nightly_rollup(leases: &Leases, day: &jiff::civil::Date) -> Result<(), dunlin::Error> {
    let lease = leases.acquire(&format!("rollup/{}", day), 600)?;
    let rows = crate::rollup::collect(day)?;
    crate::rollup::write(day, &rows)?;
    leases.release(lease)?;
    Ok(())
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
