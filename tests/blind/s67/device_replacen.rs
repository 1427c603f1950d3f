use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct Devices {
    pub kv: Kv,
    pub inventory: Kv,
}

impl Devices {
    pub async fn enroll(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(hdr) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let client_key = hdr.replacen('|', "-", 4);
        let Some(mac) = ctx.query("mac") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let mac_compact = mac.replace(':', "").to_ascii_lowercase();
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "device.enroll", &client_key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let device = crate::devices::enroll(&caller, &mac_compact).await;
        self.inventory.put(&device.serial, mac_compact.into_bytes()).await.ok();
        self.kv.put(sk.storage_key(), device.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &device)
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
