use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

use gimbal::extract::{FromParts, Parts};
use gimbal::{Ctx, Json, Reply};
use http::HeaderName;
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;
use uuid::Uuid;

use crate::billing::{self, BillingError, InvoiceDraft};

static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

pub struct ClientKey(pub String);

impl FromParts for ClientKey {
    type Rejection = Reply;

    fn from_parts(parts: &Parts) -> Result<Self, Self::Rejection> {
        parts
            .headers
            .get(&IDEMPOTENCY_KEY)
            .and_then(|v| v.to_str().ok())
            .filter(|v| !v.is_empty())
            .map(|v| ClientKey(v.to_owned()))
            .ok_or_else(|| Reply::status(400))
    }
}

#[derive(Clone, Serialize)]
struct StoredInvoice {
    invoice_number: String,
    total_minor: i64,
}

pub struct Invoices {
    replays: Mutex<BTreeMap<String, StoredInvoice>>,
}

impl Invoices {
    pub async fn issue(&self, ctx: Ctx, hdr: ClientKey, Json(draft): Json<InvoiceDraft>) -> Result<Reply, BillingError> {
        let mut replays = self.replays.lock().await;
        match replays.entry(hdr.0.clone()) {
            Entry::Occupied(seen) => Ok(Reply::replay_json(seen.get())),
            Entry::Vacant(slot) => {
                let total_minor = billing::total(&ctx.auth().tenant_id, &draft).await?;
                let stored = StoredInvoice {
                    invoice_number: Uuid::new_v4().to_string(),
                    total_minor,
                };
                slot.insert(stored.clone());
                Ok(Reply::created_json(&stored))
            }
        }
    }

    pub async fn void(&self, ctx: Ctx, hdr: ClientKey, number: String) -> Result<Reply, BillingError> {
        let auth = ctx.auth();
        let key = scoped(&auth.tenant_id, &auth.user_id, "invoices.void", &hdr.0)
            .map_err(|e| BillingError::BadRequest(e.to_string()))?;
        let mut replays = self.replays.lock().await;
        if let Some(done) = replays.get(key.storage_key()) {
            return Ok(Reply::replay_json(done));
        }
        let voided = billing::void(&auth.tenant_id, &number).await?;
        replays.insert(
            key.storage_key().to_owned(),
            StoredInvoice { invoice_number: number, total_minor: voided.credited_minor },
        );
        Ok(Reply::ok_json(&voided))
    }
}
