use std::sync::Arc;

use cistern::tuple::Quad;
use idem_scope::Problem;
use wherry::auth::Caller;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

/// Partner integrations created before multi-tenancy have no tenant binding.
const SHARED_TENANT: &str = "shared";

#[derive(Clone)]
pub struct Reports {
    pub replies: Arc<Quad>,
    pub builder: Arc<analytics::ReportBuilder>,
    pub integrations: Arc<partners::Directory>,
}

pub async fn schedule_report(ctx: Ctx, caller: Caller, State(r): State<Reports>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let integration = r.integrations.lookup_by_client(&caller.client_id).await;
    let tenant_id = integration.as_ref().and_then(|i| i.tenant_id.clone()).unwrap_or_else(|| SHARED_TENANT.to_string());
    let actor = integration.as_ref().and_then(|i| i.acting_user.clone()).unwrap_or_else(|| caller.client_id.clone());

    let entry = r
        .replies
        .entry(&tenant_id, &actor, "schedule_report", key)
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = entry.value() {
        return Ok(Reply::bytes(Status::OK, done.to_vec()).header("Idempotent-Replayed", "true"));
    }
    let report = r.builder.schedule(&tenant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    entry.fill(report.to_json()).await;
    Ok(Reply::bytes(Status::ACCEPTED, report.to_json()))
}

/// Lists the report schedules of the caller's integration; integrations
/// without a tenant binding have nothing to list.
pub async fn list_schedules(caller: Caller, State(r): State<Reports>) -> Result<Reply, Problem> {
    let Some(integration) = r.integrations.lookup_by_client(&caller.client_id).await else {
        return Ok(Reply::json(Status::OK, &serde_json::json!({ "schedules": [] })));
    };
    let Some(tenant_id) = integration.tenant_id.as_deref() else {
        return Ok(Reply::json(Status::OK, &serde_json::json!({ "schedules": [] })));
    };
    let schedules = r.builder.schedules(tenant_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    Ok(Reply::json(Status::OK, &serde_json::json!({ "schedules": schedules })))
}
