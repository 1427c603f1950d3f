use idem_scope::{scoped, ScopedKey};
use marrow::Kv;

/// Keyspace layout of the `replays` bucket:
///   c/<scoped key>   outcomes of client requests (Idempotency-Key)
///   evt/<event id>   provider events already applied
pub struct ReplayBucket {
    kv: Kv,
}

pub struct ProviderEvent {
    pub id: String,
    pub account_id: String,
    pub kind: String,
}

impl ReplayBucket {
    fn client_slot(sk: &ScopedKey) -> String {
        format!("c/{}", sk.storage_key())
    }

    pub fn client_outcome(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap) -> anyhow::Result<Option<Vec<u8>>> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(&caller.account_id, &caller.user_id, "payments.capture", key)?;
        Ok(self.kv.get(Self::client_slot(&sk).as_bytes())?)
    }

    pub fn save_client_outcome(&self, sk: &ScopedKey, body: &[u8]) -> anyhow::Result<()> {
        self.kv.put(Self::client_slot(sk).as_bytes(), body)?;
        Ok(())
    }

    pub fn apply_event(&self, evt: &ProviderEvent, ledger: &crate::ledger::Ledger) -> anyhow::Result<bool> {
        let slot = format!("evt/{}", evt.id);
        if self.kv.get(slot.as_bytes())?.is_some() {
            return Ok(false);
        }
        ledger.apply_provider_event(&evt.account_id, &evt.kind)?;
        self.kv.put(slot.as_bytes(), evt.kind.as_bytes())?;
        Ok(true)
    }
}
