use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use sextant::locker::Locker;
use tokio::sync::Mutex;

pub struct VoucherItem {
    pub code: String,
    pub value_minor: i64,
}

pub struct VoucherBatch {
    pub tenant_id: String,
    pub user_id: String,
    pub idempotency_key: String,
    pub items: Vec<VoucherItem>,
}

pub struct Issuer {
    locker: Arc<Locker>,
    single_flight: Mutex<()>,
    wallet: crate::wallet::Wallet,
}

impl Issuer {
    pub async fn issue(&self, batch: VoucherBatch) -> eyre::Result<usize> {
        let Ok(_only_one) = self.single_flight.try_lock() else {
            eyre::bail!("issuer busy");
        };
        let sk = scoped(&batch.tenant_id, &batch.user_id, "voucher_issue", &batch.idempotency_key)?;
        if !self.locker.claim(sk.storage_key(), Duration::from_secs(120)).await? {
            return Ok(0);
        }
        let mut issued = 0usize;
        'items: for item in &batch.items {
            for attempt in 0..3 {
                match self.wallet.credit(&batch.tenant_id, &item.code, item.value_minor).await {
                    Ok(()) => {
                        issued += 1;
                        continue 'items;
                    }
                    Err(e) if e.is_retryable() && attempt < 2 => {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Err(e) => {
                        tracing::error!(error = %e, code = %item.code, "voucher credit failed");
                        break 'items;
                    }
                }
            }
        }
        if issued < batch.items.len() {
            return Ok(issued);
        }
        self.locker.complete(sk.storage_key(), issued.to_string().as_bytes()).await?;
        Ok(issued)
    }
}
