use dunlin::kv::Kv;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub async fn finalize_invoice(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let tenant = caller.tenant_id.clone();
    let user = caller.user_id.clone();
    let route = "invoice.finalize";
    let mk = |k: &str| format!("{tenant}#{user}#{route}#{k}");
    let client_key = match ctx.header("Idempotency-Key") {
        Some(k) => k.to_string(),
        None => return Reply::status(Status::BAD_REQUEST),
    };
    let slot = mk(&client_key);
    match kv.claim(&slot).await {
        Ok(true) => {}
        Ok(false) => return Reply::status(Status::CONFLICT),
        Err(_) => return Reply::status(Status::SERVICE_UNAVAILABLE),
    }
    let invoice = match crate::invoices::finalize(&caller, ctx.body()).await {
        Ok(inv) => inv,
        Err(e) => {
            kv.release(&slot).await.ok();
            return Reply::error(Status::UNPROCESSABLE_ENTITY, e.to_string());
        }
    };
    kv.complete(&slot, invoice.to_bytes()).await.ok();
    let msg = format!("invoice {} finalized (request {})", invoice.number, client_key);
    Reply::text(Status::OK, msg)
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
