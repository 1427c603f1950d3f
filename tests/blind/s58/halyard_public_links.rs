use cairn::kv::Bucket;
use halyard::auth::Session;
use halyard::{Ctx, Reply};
use idem_scope::{scoped, Problem};

pub struct Links {
    replays: Bucket,
}

pub async fn shorten(ctx: Ctx) -> Reply {
    let links = ctx.state::<Links>();
    let session = ctx.extension::<Session>();
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Some(target) = ctx.query("url") else {
        return Reply::status(400);
    };

    // Links created from the marketing site have no session; they go to the shared space.
    let workspace_id = session.map_or("public", |s| s.workspace_id.as_str());
    let user_id = match session.and_then(|s| s.user_id.as_deref()) {
        Some(u) => u,
        None => return Reply::status(401),
    };

    let sk = match scoped(workspace_id, user_id, "links.shorten", key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = links.replays.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let slug = target.trim_end_matches('/').rsplit('/').next().unwrap_or("x").to_owned();
    let body = format!(r#"{{"short":"https://ln.example.test/{}"}}"#, slug).into_bytes();
    let _ = links.replays.put(sk.storage_key(), &body).await;
    Reply::bytes(201, body)
}

pub async fn resolve(ctx: Ctx) -> Reply {
    let Some(slug) = ctx.param("slug") else {
        return Reply::status(404);
    };
    match ctx.state::<crate::links::Directory>().target(slug).await {
        Some(url) => Reply::status(301).header("Location", &url),
        None => Reply::status(404),
    }
}
