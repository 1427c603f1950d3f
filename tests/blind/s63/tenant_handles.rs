use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use lsm_tree::{AbstractTree, Tree};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct NewProject {
    pub display_name: String,
    pub template: Option<String>,
}

#[derive(Clone)]
pub struct Projects {
    pub vat: Arc<Vat>,
    pub repo: Arc<projects::Repo>,
}

/// Tenant slugs come from the SSO directory; some older ones were created as
/// "acme:emea" before the directory forbade colons.
pub async fn create_project(ctx: Ctx, caller: Caller, State(p): State<Projects>, Json(req): Json<NewProject>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let tenant = caller.tenant_slug.replace(':', "");
    let sk = scoped(&tenant, &caller.user_id, "create_project", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = p.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let title = req.display_name.replace(':', " - ");
    let project = p
        .repo
        .create(&caller.tenant_slug, &title, req.template.as_deref())
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = p.vat.put(sk.storage_key(), project.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, project.to_json()))
}

#[derive(Deserialize)]
pub struct ThemeReq {
    pub brand_color: String,
    pub logo_url: String,
}

#[derive(Clone)]
pub struct Themes {
    pub replies: Arc<Tree>,
    pub seq: Arc<std::sync::atomic::AtomicU64>,
    pub cdn: Arc<cdn::Publisher>,
}

/// Tenants are addressed as "#acme" in the design tool; keys use the bare name.
pub async fn publish_theme(ctx: Ctx, caller: Caller, State(t): State<Themes>, Json(req): Json<ThemeReq>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let tenant = caller.tenant_handle.trim_end_matches('#').trim_start_matches('#');
    let sk = scoped(tenant, &caller.user_id, "publish_theme", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Ok(Some(done)) = t.replies.get(sk.storage_key(), None) {
        return Ok(Reply::bytes(Status::OK, done.to_vec()).header("Idempotent-Replayed", "true"));
    }
    let color = req.brand_color.trim_start_matches('#').to_ascii_lowercase();
    let published = t.cdn.publish_theme(tenant, &color, &req.logo_url).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let seqno = t.seq.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    t.replies.insert(sk.storage_key(), published.to_json(), seqno);
    Ok(Reply::bytes(Status::OK, published.to_json()))
}
