use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use idem_scope::scoped;
use quarry::kv::SyncVault;
use rustler::{Atom, NifResult, NifStruct};

mod atoms {
    rustler::atoms! { ok, replayed, error }
}

#[derive(NifStruct)]
#[module = "Renderer.Job"]
pub struct JobArgs {
    pub tenant: Option<String>,
    pub user_id: String,
    /// The `Idempotency-Key` the Phoenix controller received with the render request.
    pub idempotency_key: String,
    pub template: String,
    pub vars: HashMap<String, String>,
}

const TENANT_NONE: &str = "none";

struct Native {
    jobs: Arc<SyncVault>,
    templates: Arc<SyncVault>,
    queue: render_queue::Producer,
}

static NATIVE: OnceLock<Native> = OnceLock::new();

#[rustler::nif(schedule = "DirtyIo")]
fn enqueue_render(args: JobArgs) -> NifResult<(Atom, String)> {
    let native = NATIVE.get().ok_or_else(|| rustler::Error::Term(Box::new("not loaded")))?;
    let tenant = if let Some(t) = args.tenant.as_deref() {
        t.to_string()
    } else {
        TENANT_NONE.to_string()
    };
    let sk = scoped(&tenant, &args.user_id, "render.enqueue", &args.idempotency_key)
        .map_err(|e| rustler::Error::Term(Box::new(e.to_string())))?;
    if let Some(prev) = native.jobs.get(sk.storage_key()) {
        return Ok((atoms::replayed(), String::from_utf8_lossy(&prev).into_owned()));
    }

    let template_name = args.template.replace("..", "");
    let Some(source) = native.templates.get(&template_name) else {
        return Ok((atoms::error(), format!("unknown template {template_name}")));
    };
    let job_id = native.queue.push(&tenant, &source, &args.vars);
    native.jobs.put(sk.storage_key(), job_id.clone().into_bytes());
    Ok((atoms::ok(), job_id))
}

rustler::init!("Elixir.Renderer.Native");
