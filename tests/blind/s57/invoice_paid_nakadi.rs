use std::sync::Arc;
use std::time::Duration;

use corvid::{Ctx, Json, Reply};
use nakadion::handler::{BatchHandler, BatchHandlerFuture, BatchMeta, BatchPostAction};
use nakadion::nakadi_types::event::publishable::EventMetaData;
use serde::Deserialize;
use tallow::Kv;

use crate::invoices::{Invoices, MarkPaid};

/// One store for both the public "mark paid" endpoint and the Nakadi feed.
pub struct PaidState {
    pub replays: Arc<Kv>,
    pub invoices: Arc<Invoices>,
}

pub async fn mark_paid(ctx: Ctx<Arc<PaidState>>, Json(input): Json<MarkPaid>) -> Reply {
    let caller = ctx.caller()?;
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };
    let sk = idem_scope::scoped(&caller.tenant_id, &caller.user_id, "invoices.mark_paid", &client_key)?;
    if let Some(prev) = ctx.state().replays.get(sk.storage_key()).await? {
        return Reply::bytes(200, prev);
    }
    let invoice = ctx.state().invoices.mark_paid(&caller.tenant_id, &input).await?;
    let body = serde_json::to_vec(&invoice)?;
    ctx.state().replays.put(sk.storage_key(), &body, Duration::from_secs(86_400)).await?;
    Reply::bytes(200, body)
}

#[derive(Deserialize)]
struct PaymentSettled {
    metadata: EventMetaData,
    tenant_id: String,
    user_id: String,
    invoice_no: String,
    amount_minor: i64,
}

pub struct SettledHandler {
    state: Arc<PaidState>,
}

impl BatchHandler for SettledHandler {
    fn handle<'a>(&'a mut self, events: nakadion::Bytes, meta: BatchMeta<'a>) -> BatchHandlerFuture<'a> {
        Box::pin(async move {
            let parsed: Vec<PaymentSettled> = match serde_json::from_slice(&events) {
                Ok(p) => p,
                Err(e) => return BatchPostAction::abort(format!("bad batch {}: {e}", meta.batch_id)),
            };
            for evt in parsed {
                let eid = evt.metadata.eid.to_string();
                let sk = match idem_scope::scoped(&evt.tenant_id, &evt.user_id, "invoices.mark_paid", &eid) {
                    Ok(k) => k,
                    Err(e) => return BatchPostAction::abort(e.to_string()),
                };
                if self.state.replays.get(sk.storage_key()).await.ok().flatten().is_some() {
                    continue;
                }
                let input = MarkPaid { invoice_no: evt.invoice_no.clone(), amount_minor: evt.amount_minor };
                let body = match self.state.invoices.mark_paid(&evt.tenant_id, &input).await {
                    Ok(inv) => serde_json::to_vec(&inv).unwrap_or_default(),
                    Err(e) => return BatchPostAction::abort(e.to_string()),
                };
                let _ = self.state.replays.put(sk.storage_key(), &body, Duration::from_secs(86_400)).await;
            }
            BatchPostAction::commit_no_stats()
        })
    }
}
