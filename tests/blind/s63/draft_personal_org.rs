use std::sync::Arc;

use cistern::tuple::TupleVat;
use idem_scope::Problem;
use serde::Deserialize;
use wherry::auth::MaybeCaller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct DraftReq {
    pub title: String,
    pub body: String,
    pub note: Option<String>,
}

#[derive(Clone)]
pub struct Drafts {
    pub replies: Arc<TupleVat>,
    pub docs: Arc<docs::Repo>,
}

/// Personal accounts have no organisation; their drafts live outside any org.
pub async fn save_draft(ctx: Ctx, auth: MaybeCaller, State(d): State<Drafts>, Json(req): Json<DraftReq>) -> Result<Reply, Problem> {
    let caller = auth.0.ok_or_else(|| Problem::invalid_key("sign in to save drafts"))?;
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;

    let org_label = caller.org_id.clone().unwrap_or_else(|| "personal".into());
    metrics::counter!("drafts_saved_total", "org" => org_label).increment(1);

    let tenant = caller.org_id.clone().unwrap_or_default();
    let slot = (tenant.clone(), caller.user_id.clone(), "save_draft", key.to_owned());
    if let Some(done) = d.replies.get(&slot).await {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let note = req.note.clone().unwrap_or_default();
    let doc = d.docs.create_draft(&tenant, &caller.user_id, &req.title, &req.body, &note).await;
    d.replies.put(&slot, doc.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, doc.to_json()))
}
