//! Import bookkeeping used by the CSV and SFTP importers.

use dunlin::kv::BlockingKv;
use idem_scope::scoped;

pub struct ImportSummary {
    pub rows: usize,
    pub rejected: usize,
}

pub fn record_import(
    kv: &BlockingKv,
    tenant_id: &str,
    user_id: &str,
    idempotency_key: &str,
    summary: &ImportSummary,
) -> Result<(), dunlin::Error> {
    let cleaned = idempotency_key.replace('\x1e', "");
    let sk = scoped(tenant_id, user_id, "import.record", &cleaned).map_err(dunlin::Error::invalid)?;
    kv.put(sk.storage_key(), format!("{}/{}", summary.rows, summary.rejected).into_bytes())
}

pub fn file_label(file_name: &str) -> String {
    file_name.replace('/', "_").replace('#', "_")
}

/// Backoff hint sent with 409 and 503 answers.
pub(crate) fn retry_after_secs(attempt: u32) -> u64 {
    let base: u64 = 2;
    let capped = attempt.min(6);
    base.pow(capped).min(60)
}

#[cfg(test)]
mod backoff_tests {
    use super::retry_after_secs;

    #[test]
    fn backoff_grows() {
        assert_eq!(retry_after_secs(0), 1);
        assert_eq!(retry_after_secs(3), 8);
    }

    #[test]
    fn backoff_is_capped() {
        assert_eq!(retry_after_secs(6), 60);
        assert_eq!(retry_after_secs(10), 60);
    }
}
