use dunlin::tuple::TupleKv;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct Subscriptions {
    pub pairs: TupleKv,
}

impl Subscriptions {
    pub async fn subscribe(&self, ctx: Ctx, caller: Caller) -> Reply {
        let client_key = match ctx.header("Idempotency-Key") {
            Some(k) => k,
            None => return Reply::status(Status::BAD_REQUEST),
        };
        let slot = (caller.tenant_id.as_str(), client_key);
        if let Ok(Some(hit)) = self.pairs.get(&slot).await {
            return Reply::bytes(Status::OK, hit);
        }
        let sub = crate::billing::subscribe(&caller, ctx.body()).await;
        self.pairs.put(&slot, sub.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &sub)
    }

    pub async fn cancel(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let slot = (caller.tenant_id.as_str(), caller.user_id.as_str(), "subscription.cancel", client_key);
        if let Ok(Some(hit)) = self.pairs.get(&slot).await {
            return Reply::bytes(Status::OK, hit);
        }
        let done = crate::billing::cancel(&caller).await;
        self.pairs.put(&slot, done.to_bytes()).await.ok();
        Reply::json(Status::OK, &done)
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
