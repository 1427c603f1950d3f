use std::collections::HashMap;
use std::sync::Arc;

use corvid::{Ctx, Reply};
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;
use zeebe::{Client, Job};

use crate::payments::{CaptureResult, Processor};

type Slot = (String, String, String, String);

#[derive(Clone)]
pub struct CaptureState {
    pub processor: Arc<Processor>,
    pub outcomes: Arc<Mutex<HashMap<Slot, CaptureResult>>>,
}

#[derive(Deserialize)]
struct CaptureVars {
    tenant_id: String,
    user_id: String,
    payment_id: String,
}

#[derive(Serialize)]
struct CaptureOutput {
    captured: bool,
    reference: String,
}

pub async fn capture_http(ctx: Ctx<CaptureState>, payment_id: String) -> Reply {
    let caller = ctx.caller()?;
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };
    let slot: Slot = (caller.tenant_id.clone(), caller.user_id.clone(), "payments.capture".into(), client_key);
    if let Some(done) = ctx.state().outcomes.lock().await.get(&slot) {
        return Reply::json(200, done);
    }
    let result = ctx.state().processor.capture(&caller.tenant_id, &payment_id).await?;
    ctx.state().outcomes.lock().await.insert(slot, result.clone());
    Reply::json(200, &result)
}

pub async fn capture_job(state: CaptureState, client: Client, job: Job) {
    let vars: CaptureVars = match job.variables_as() {
        Some(v) => v,
        None => {
            let _ = client.fail_job().with_job_key(job.key()).with_error_message("bad variables").send().await;
            return;
        }
    };
    let job_id = job.key().to_string();
    let slot: Slot = (vars.tenant_id.clone(), vars.user_id.clone(), "payments.capture".into(), job_id);
    let existing = state.outcomes.lock().await.get(&slot).cloned();
    let result = match existing {
        Some(r) => r,
        None => match state.processor.capture(&vars.tenant_id, &vars.payment_id).await {
            Ok(r) => {
                state.outcomes.lock().await.insert(slot, r.clone());
                r
            }
            Err(e) => {
                let _ = client.fail_job().with_job_key(job.key()).with_error_message(e.to_string()).send().await;
                return;
            }
        },
    };
    let output = CaptureOutput { captured: true, reference: result.reference.clone() };
    let _ = client
        .complete_job()
        .with_job_key(job.key())
        .with_payload(serde_json::to_value(&output).unwrap_or_default())
        .send()
        .await;
}
