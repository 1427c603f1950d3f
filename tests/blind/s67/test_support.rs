use dunlin::kv::BlockingKv;
use idem_scope::scoped;

pub fn replay_slot(tenant: &str, user: &str, route: &str, key: &str) -> Option<String> {
    scoped(tenant, user, route, key).ok().map(|sk| sk.storage_key().to_owned())
}

#[cfg(feature = "fake-store")]
pub mod fake {
    use super::*;

    pub fn seed(kv: &BlockingKv, idempotency_key: &str, body: &[u8]) {
        kv.put(idempotency_key, body.to_vec()).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_are_returned() {
        let kv = BlockingKv::memory();
        let key = "k-123";
        let slot = format!("t1:u1:charge:{}", key);
        kv.put(&slot, b"done".to_vec()).unwrap();
        assert_eq!(kv.get(&slot).unwrap().unwrap(), b"done".to_vec());
    }

    #[test]
    fn slot_is_scoped() {
        let a = replay_slot("t1", "u1", "charge", "k").unwrap();
        let b = replay_slot("t2", "u1", "charge", "k").unwrap();
        assert_ne!(a, b);
    }
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
