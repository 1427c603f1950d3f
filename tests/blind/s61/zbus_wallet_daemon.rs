use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;
use zbus::{fdo, interface, zvariant::Type};

#[derive(Deserialize, Serialize, Type)]
pub struct TransferRequest {
    pub account_id: String,
    pub destination: String,
    pub amount_minor: i64,
    /// Client idempotency key: the same value the desktop app sends to the
    /// wallet API as its `Idempotency-Key`, so a retried click is not paid twice.
    pub token: String,
    pub locale: Option<String>,
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct ReplayKey {
    account_id: String,
    token: String,
}

pub struct WalletDaemon {
    signer: Mutex<HardwareSigner>,
    seen: Mutex<BTreeMap<ReplayKey, String>>,
}

#[interface(name = "org.acme.Wallet1")]
impl WalletDaemon {
    async fn submit_transfer(&self, req: TransferRequest) -> fdo::Result<String> {
        let rk = ReplayKey { account_id: req.account_id.clone(), token: req.token.clone() };
        if let Some(prev) = self.seen.lock().await.get(&rk) {
            return Ok(prev.clone());
        }

        let locale = req.locale.clone().unwrap_or_default();
        let Ok(signer) = self.signer.try_lock() else {
            return Err(fdo::Error::LimitsExceeded("signer busy, retry shortly".into()));
        };
        let receipt = signer
            .sign_transfer(&req.destination, req.amount_minor, &locale)
            .map_err(|e| fdo::Error::Failed(e.to_string()))?;
        drop(signer);

        self.seen.lock().await.insert(rk, receipt.clone());
        Ok(receipt)
    }

    #[zbus(property)]
    async fn pending(&self) -> u32 {
        self.seen.lock().await.len() as u32
    }
}

pub struct HardwareSigner {
    slot: u8,
}

impl HardwareSigner {
    fn sign_transfer(&self, dest: &str, amount: i64, locale: &str) -> Result<String, std::io::Error> {
        if dest.is_empty() || amount <= 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "bad transfer"));
        }
        Ok(format!("rcpt-{}-{}-{}-{}", self.slot, dest, amount, locale))
    }
}
