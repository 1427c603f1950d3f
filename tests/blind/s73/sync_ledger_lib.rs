//! Blocking ledger helpers used by the scale-house kiosks (no async runtime
//! on those boxes). Published as an internal crate; nothing here calls it.

use bushel::crock::SyncCrock;

pub struct KioskLedger {
    crock: SyncCrock,
}

#[derive(Debug)]
pub enum LedgerError {
    KeyTooLong,
    Store(bushel::Error),
}

impl KioskLedger {
    pub fn open(path: &std::path::Path) -> Result<Self, LedgerError> {
        let crock = SyncCrock::open(path).map_err(LedgerError::Store)?;
        Ok(KioskLedger { crock })
    }

    pub fn record(
        &self,
        tenant_id: &str,
        user_id: &str,
        endpoint: &str,
        idem_key: &str,
        response: &[u8],
    ) -> Result<(), LedgerError> {
        if idem_key.len() > 255 {
            return Err(LedgerError::KeyTooLong);
        }
        let entry = tenant_id.to_owned() + "/" + user_id + "/" + endpoint + "/" + idem_key;
        self.crock.put(&entry, response).map_err(LedgerError::Store)
    }

    pub fn export_name(tenant_id: &str, day: &str) -> String {
        tenant_id.to_owned() + "-" + day + ".ledger"
    }
}
