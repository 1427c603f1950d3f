//! Transactional outbox helpers shared by the billing workers.

use cobble::sql::Tx;

pub struct OutboxWriter<'a> {
    tx: &'a mut Tx,
}

impl<'a> OutboxWriter<'a> {
    pub fn new(tx: &'a mut Tx) -> Self {
        OutboxWriter { tx }
    }

    pub async fn enqueue(&mut self, tenant_id: &str, user_id: &str, operation: &str, idem_key: &str, payload: &[u8]) -> Result<(), cobble::sql::Error> {
        let dedup = format!("{tenant_id}/{user_id}/{operation}/{idem_key}");
        self.tx
            .query("INSERT INTO outbox_idempotency (dedup_key, payload) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(&dedup)
            .bind(payload)
            .execute()
            .await?;
        Ok(())
    }

    pub async fn enqueue_audit(&mut self, tenant_id: &str, kind: &str, payload: &[u8]) -> Result<(), cobble::sql::Error> {
        let topic = format!("audit.{tenant_id}.{kind}");
        self.tx
            .query("INSERT INTO audit_outbox (topic, payload) VALUES ($1, $2)")
            .bind(&topic)
            .bind(payload)
            .execute()
            .await?;
        Ok(())
    }
}

pub fn backoff_secs(attempt: u32) -> u64 {
    let base = 2u64.saturating_pow(attempt.min(10));
    base.min(600)
}

#[cfg(test)]
mod tests {
    #[test]
    fn backoff_is_capped() {
        assert_eq!(super::backoff_secs(20), 600);
    }
}
