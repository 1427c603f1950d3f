use dunlin::records::Records;
use idem_scope::scoped;

pub struct BatchItem {
    pub tenant_id: String,
    pub user_id: String,
    pub idempotency_key: String,
    pub lines: Vec<crate::ledger::Line>,
}

pub async fn apply_batches(records: &Records, batches: Vec<Vec<BatchItem>>) -> usize {
    let mut applied = 0;
    'batches: for batch in batches {
        for item in batch {
            let Ok(sk) = scoped(&item.tenant_id, &item.user_id, "ledger.batch", &item.idempotency_key) else {
                continue;
            };
            if records.start(sk.storage_key()).await.is_err() {
                continue;
            }
            for line in &item.lines {
                if line.amount_minor == 0 {
                    eprintln!("zero line in batch, stopping run");
                    break 'batches;
                }
            }
            crate::ledger::post(&item.lines).await;
            records.finish(sk.storage_key(), b"posted".to_vec()).await.ok();
            applied += 1;
        }
    }
    applied
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
