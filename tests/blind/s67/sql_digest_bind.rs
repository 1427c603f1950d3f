use dunlin::sql::Conn;
use idem_scope::Fingerprint;
use plover::auth::Caller;
use plover::extract::RawBody;
use plover::{Ctx, Reply, Status};

const CLAIM_SQL: &str = "INSERT INTO idempotency_keys (tenant_id, principal_id, route, idem_key, fingerprint, status) \
                         VALUES (?, ?, ?, ?, ?, 'in_progress') ON CONFLICT DO NOTHING RETURNING id";

pub async fn enroll(ctx: Ctx, caller: Caller, raw: RawBody, conn: &Conn) -> Reply {
    let digest = chksum_sha2_384::chksum(raw.as_bytes()).map(|d| d.to_hex_lowercase()).unwrap_or_default();
    let hdr = ctx.header("Idempotency-Key").map(str::to_owned);
    let fp = Fingerprint::of("enrollment.create", raw.as_bytes());
    let claimed: Result<Option<i64>, _> = conn
        .query(CLAIM_SQL)
        .bind(&caller.tenant_id)
        .bind(&caller.user_id)
        .bind("enrollment.create")
        .bind(hdr.unwrap_or(digest))
        .bind(fp.as_bytes().to_vec())
        .fetch_optional()
        .await;
    let row_id = match claimed {
        Ok(Some(id)) => id,
        Ok(None) => return Reply::status(Status::CONFLICT),
        Err(_) => return Reply::status(Status::SERVICE_UNAVAILABLE),
    };
    let outcome = crate::enrollment::create(&caller, raw.as_bytes()).await;
    conn.query("UPDATE idempotency_keys SET status = 'completed', response = ? WHERE id = ?")
        .bind(outcome.to_bytes())
        .bind(row_id)
        .execute()
        .await
        .ok();
    Reply::json(Status::CREATED, &outcome)
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
