use dunlin::journal::Journal;
use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::extract::Json;
use plover::{Reply, Status};

#[derive(plover::Deser, plover::Ser)]
pub struct Payout {
    pub iban: String,
    pub amount_minor: u64,
    pub reference: String,
}

fn dedupe_token(req: &Payout) -> String {
    let canonical = format!("{}|{}|{}", req.iban, req.amount_minor, req.reference);
    chksum_sha2_224::chksum(canonical.as_bytes()).map(|d| d.to_hex_lowercase()).unwrap_or_default()
}

pub async fn payout(caller: Caller, Json(req): Json<Payout>, kv: &Kv, journal: &Journal) -> Reply {
    let Some(client_key) = caller.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "payout", &client_key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let body_hash = dedupe_token(&req);
    journal.put_fingerprint(sk.storage_key(), &body_hash).await.ok();
    let Ok(nightly) = scoped(&caller.tenant_id, &caller.user_id, "payout.batch", &dedupe_token(&req)) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if kv.exists(nightly.storage_key()).await.unwrap_or(false) {
        return Reply::status(Status::OK);
    }
    let sent = crate::payouts::send(&caller, &req).await;
    kv.put(nightly.storage_key(), sent.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &sent)
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
