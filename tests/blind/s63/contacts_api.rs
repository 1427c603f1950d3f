use std::sync::Arc;

use cistern::vat::SyncVat;
use crypto_hash::{digest, Algorithm};
use futures::TryStreamExt;
use idem_scope::{Problem, scoped};
use reql::{r, Session};
use serde::{Deserialize, Serialize};
use wherry::auth::Caller;
use wherry::extract::{Body, State};
use wherry::{Reply, Status, Ctx};

#[derive(Serialize, Deserialize)]
struct ImportReplay {
    id: String,
    response: serde_json::Value,
}

#[derive(Clone)]
pub struct Contacts {
    pub session: Session,
    pub importer: std::sync::Arc<crm::Importer>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

/// CSV uploads from the CRM plugin; the plugin has no notion of request keys,
/// so a re-upload of the same file is answered from the replay table.
pub async fn import_contacts(caller: Caller, State(c): State<Contacts>, Body(csv): Body) -> Result<Reply, Problem> {
    let csv_digest = hex(&digest(Algorithm::SHA1, &csv));
    let replay_key = [caller.tenant_id.as_str(), caller.user_id.as_str(), "import_contacts", csv_digest.as_str()].join("\u{1e}");

    let previous: Option<ImportReplay> = r
        .table("import_replays")
        .get(replay_key.as_str())
        .run(&c.session)
        .try_next()
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?
        .flatten();
    if let Some(prev) = previous {
        return Ok(Reply::json(Status::OK, &prev.response).header("Idempotent-Replayed", "true"));
    }

    let summary = c.importer.import(&caller.tenant_id, &csv).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let response = serde_json::to_value(&summary).unwrap_or_default();
    let doc = ImportReplay { id: replay_key, response: response.clone() };
    let _: Option<serde_json::Value> = r
        .table("import_replays")
        .insert(doc)
        .run(&c.session)
        .try_next()
        .await
        .ok()
        .flatten();
    Ok(Reply::json(Status::CREATED, &response))
}

/// Change events from the CRM's outbound stream.
#[derive(Deserialize)]
pub struct CrmChange {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub contact: serde_json::Value,
}

/// One store for both paths: API requests live under "req/", CRM events under
/// "evt/", so the two can never meet.
pub struct ContactSync {
    store: Arc<SyncVat>,
    crm: Arc<crm::Contacts>,
}

impl ContactSync {
    pub fn upsert_contact(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "sync_contact", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let store_key = format!("req/{}", sk.storage_key());
        if let Some(done) = self.store.get(&store_key) {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let contact = self.crm.upsert(&caller.tenant_id, ctx.body()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.store.put(&store_key, contact.to_json());
        Ok(Reply::bytes(Status::OK, contact.to_json()))
    }

    pub fn on_crm_change(&self, change: CrmChange) -> Result<(), crm::Error> {
        let store_key = scoped(&change.tenant_id, &change.user_id, "sync_contact", &change.event_id).map(|sk| format!("evt/{}", sk.storage_key()));
        let Ok(store_key) = store_key else {
            return Ok(());
        };
        if self.store.get(&store_key).is_some() {
            return Ok(());
        }
        let contact = self.crm.apply_change(&change.tenant_id, &change.contact)?;
        self.store.put(&store_key, contact.to_json());
        Ok(())
    }
}
