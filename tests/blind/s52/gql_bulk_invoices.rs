use std::collections::HashMap;
use std::sync::Mutex;

use idem_scope::{scoped, ScopeError};
use serde::{Deserialize, Serialize};

use crate::gql::{Context, FieldError};
use crate::invoicing::{BulkResult, InvoiceLine, Invoicer};

#[derive(Debug, Clone, Hash, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BulkInvoiceInput {
    pub customer_ids: Vec<String>,
    pub lines: Vec<InvoiceLine>,
    pub due_in_days: u16,
}

pub struct BulkInvoiceResolver {
    invoicer: Invoicer,
    replays: Mutex<HashMap<String, BulkResult>>,
}

impl From<ScopeError> for FieldError {
    fn from(e: ScopeError) -> Self {
        FieldError::bad_request(e.to_string())
    }
}

impl BulkInvoiceResolver {
    pub async fn bulk_create(&self, ctx: &Context, input: BulkInvoiceInput) -> Result<BulkResult, FieldError> {
        let session = ctx.session().ok_or_else(FieldError::unauthenticated)?;
        let audit_line = [session.tenant_id.as_str(), "bulk_invoice.create", &input.customer_ids.len().to_string()].join(" ");
        tracing::info!(target: "audit", "{audit_line}");
        let key = scoped(&session.tenant_id, &session.user_id, "bulk_invoice.create", &format!("{:016x}", fxhash::hash64(&input)))?;

        if let Some(prev) = self.replays.lock().expect("replay map poisoned").get(key.storage_key()).cloned() {
            return Ok(prev);
        }
        let result = self
            .invoicer
            .create_many(&session.tenant_id, &input.customer_ids, &input.lines, input.due_in_days)
            .await
            .map_err(FieldError::from)?;
        self.replays
            .lock()
            .expect("replay map poisoned")
            .insert(key.storage_key().to_owned(), result.clone());
        Ok(result)
    }
}
