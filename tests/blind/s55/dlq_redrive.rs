use std::collections::HashMap;

use idem_scope::scoped;
use relay::http::HeaderMap;
use rustbreak::deser::Bincode;
use rustbreak::PathDatabase;
use uuid::Uuid;

type Outcomes = HashMap<String, Vec<u8>>;

pub struct DeadLetter {
    pub tenant_id: String,
    pub principal_id: String,
    pub payload: Vec<u8>,
}

struct Replay {
    id: Uuid,
    letter: DeadLetter,
}

pub struct Redriver {
    db: PathDatabase<Outcomes, Bincode>,
    webhooks: webhooks::Dispatcher,
}

impl Redriver {
    pub async fn resend(&self, tenant_id: &str, principal_id: &str, headers: &HeaderMap, payload: Vec<u8>) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
        let sk = scoped(tenant_id, principal_id, "webhooks.send", key)?;
        let storage_key = sk.storage_key().to_owned();
        if let Some(prev) = self.db.read(|m| m.get(&storage_key).cloned())? {
            return Ok(prev);
        }
        let out = self.webhooks.dispatch(tenant_id, &payload).await?;
        self.db.write(|m| {
            m.insert(storage_key, out.clone());
        })?;
        Ok(out)
    }

    pub async fn redrive(&self, letters: Vec<DeadLetter>) -> anyhow::Result<usize> {
        let replays: Vec<Replay> = letters.into_iter().map(|letter| Replay { id: Uuid::new_v4(), letter }).collect();
        let mut sent = 0;
        for r in replays {
            let sk = scoped(&r.letter.tenant_id, &r.letter.principal_id, "webhooks.send", &r.id.to_string())?;
            let out = self.webhooks.dispatch(&r.letter.tenant_id, &r.letter.payload).await?;
            self.db.write(|m| {
                m.insert(sk.storage_key().to_owned(), out);
            })?;
            sent += 1;
        }
        self.db.save()?;
        Ok(sent)
    }
}
