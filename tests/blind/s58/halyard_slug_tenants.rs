use cairn::kv::Bucket;
use halyard::{Ctx, Reply};
use idem_scope::{scoped, Problem};

pub struct Projects {
    replays: Bucket,
}

fn tenant_from_path(ctx: &Ctx) -> Option<String> {
    // Mounted under /t/{tenant}/..., the router hands the slug over with its slashes.
    let raw = ctx.param("tenant")?;
    Some(raw.trim_matches('/').to_owned())
}

pub async fn create_project(ctx: Ctx) -> Reply {
    let projects = ctx.state::<Projects>();
    let Some(tenant) = tenant_from_path(&ctx) else {
        return Reply::status(404);
    };
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let Some(key) = ctx.header("Idempotency-Key").map(str::trim) else {
        return Reply::problem(Problem::missing_key());
    };
    if key.is_empty() || key.len() > 255 {
        return Reply::problem(Problem::invalid_key("length"));
    }

    let sk = match scoped(&tenant, &caller.user_id, "projects.create", key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = projects.replays.get(sk.storage_key()).await {
        tracing::debug!("replaying {}", format!("{}:{}", tenant, key));
        return Reply::bytes(200, prev);
    }
    let name = ctx.query("name").unwrap_or("untitled");
    let body = format!(r#"{{"project":"{}"}}"#, name).into_bytes();
    let _ = projects.replays.put(sk.storage_key(), &body).await;
    Reply::bytes(201, body)
}
