use std::hash::Hasher;

use dunlin::kv::Kv;
use idem_scope::{scoped, Fingerprint};
use plover::auth::Caller;
use plover::extract::RawBody;
use plover::{Ctx, Reply, Status};

fn body_crc(raw: &[u8]) -> String {
    let mut crc = pruefung::crc::Crc32::default();
    crc.write(raw);
    format!("{:08x}", crc.finish())
}

pub async fn top_up(ctx: Ctx, caller: Caller, raw: RawBody, kv: &Kv) -> Reply {
    let hdr = ctx.header("Idempotency-Key").map(str::to_owned);
    let fp = Fingerprint::of("wallet.top_up", raw.as_bytes());
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "wallet.top_up", &hdr.unwrap_or_else(|| body_crc(raw.as_bytes()))) {
        Ok(sk) => sk,
        Err(_) => return Reply::status(Status::BAD_REQUEST),
    };
    match kv.get_record(sk.storage_key()).await {
        Ok(Some(rec)) if rec.fingerprint == *fp.as_bytes() => Reply::bytes(Status::OK, rec.body),
        Ok(Some(_)) => Reply::status(Status::UNPROCESSABLE_ENTITY),
        Ok(None) => {
            let topped = crate::wallet::top_up(&caller, raw.as_bytes()).await;
            kv.put_record(sk.storage_key(), fp.as_bytes(), topped.to_bytes()).await.ok();
            Reply::json(Status::CREATED, &topped)
        }
        Err(_) => Reply::status(Status::SERVICE_UNAVAILABLE),
    }
}

pub fn attachment_checksum(bytes: &[u8]) -> String {
    let mut crc = pruefung::crc::Crc32::default();
    crc.write(bytes);
    format!("crc32:{:08x}", crc.finish())
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
