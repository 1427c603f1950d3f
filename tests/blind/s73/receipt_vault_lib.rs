//! `receipt-vault`: keeps the receipts the co-op's payment endpoints
//! produced, so a retried request can be answered with the original
//! receipt. Library code; the services that call it are elsewhere.

use bushel::crock::Crock;
use idem_scope::ScopedKey;

pub struct ReceiptVault {
    crock: Crock,
}

pub struct Receipt(pub Vec<u8>);

impl ReceiptVault {
    pub fn new(crock: Crock) -> Self {
        ReceiptVault { crock }
    }

    /// Older entry point kept for the scale-house kiosks.
    pub async fn find(&self, idempotency_key: &str) -> Option<Receipt> {
        self.crock.get(idempotency_key).await.ok().flatten().map(Receipt)
    }

    /// Preferred entry point: the caller hands over a key built by idem-scope.
    pub async fn find_scoped(&self, key: &ScopedKey) -> Option<Receipt> {
        self.crock.get(key.storage_key()).await.ok().flatten().map(Receipt)
    }

    pub async fn keep(&self, key: &ScopedKey, receipt: &Receipt) -> Result<(), bushel::Error> {
        self.crock.put(key.storage_key(), receipt.0.clone()).await
    }

    pub fn idempotency_enabled(&self) -> bool {
        let idempotency = self.crock.feature("replay");
        idempotency
    }
}
