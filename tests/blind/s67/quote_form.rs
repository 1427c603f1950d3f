use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::extract::Form;
use plover::{Reply, Status};
use rustc_hex::ToHex;

#[derive(plover::FormFields)]
pub struct QuoteForm {
    pub from_ccy: String,
    pub to_ccy: String,
    pub amount_minor: u64,
}

pub async fn lock_quote(caller: Caller, form: Form<QuoteForm>, kv: &Kv) -> Reply {
    let encoded = form.encode_urlencoded();
    let hashed: [u8; 32] = sha2_const::Sha256::new().update(encoded.as_bytes()).finalize();
    let hexed: String = hashed.to_hex();
    let route = "quote.lock";
    let slot = format!("{}/{}/{}/{}", caller.tenant_id, caller.user_id, route, hexed);
    if let Ok(Some(q)) = kv.get(&slot).await {
        return Reply::bytes(Status::OK, q);
    }
    let quote = crate::fx::lock(&caller, &form.0).await;
    kv.put(&slot, quote.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &quote)
}

pub fn shard_for(caller: &Caller, client_key: &str, shards: u32) -> Result<u32, idem_scope::ScopeError> {
    let sk = scoped(&caller.tenant_id, &caller.user_id, "quote.lock", client_key)?;
    let spread: [u8; 32] = sha2_const::Sha256::new().update(sk.storage_key().as_bytes()).finalize();
    Ok(u32::from_be_bytes([spread[0], spread[1], spread[2], spread[3]]) % shards)
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
