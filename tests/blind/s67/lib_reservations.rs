//! Seat reservation helpers shared by the booking and waitlist services.

use dunlin::kv::Kv;

pub struct Reservation {
    pub seat: String,
    pub held_until: u64,
}

pub fn reservation_slot(tenant_id: &str, user_id: &str, idempotency_key: &str) -> String {
    let route = "seat.reserve";
    let mut s = String::new();
    s += tenant_id;
    s += "|";
    s += user_id;
    s += "|";
    s += route;
    s += "|";
    s += idempotency_key;
    s
}

pub async fn remember(
    kv: &Kv,
    tenant_id: &str,
    user_id: &str,
    idempotency_key: &str,
    reservation: &Reservation,
) -> Result<(), dunlin::Error> {
    let slot = reservation_slot(tenant_id, user_id, idempotency_key);
    let value = format!("{}@{}", reservation.seat, reservation.held_until);
    kv.put(&slot, value.into_bytes()).await
}

pub async fn hold_seat(kv: &Kv, venue: &str, seat: &str, ttl_secs: u64) -> Result<bool, dunlin::Error> {
    let hold_key = format!("hold:{venue}:{seat}");
    kv.set_nx(&hold_key, b"held".to_vec(), ttl_secs).await
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
