use cairn::kv::Bucket;
use halyard::{Ctx, Reply};
use idem_scope::{scoped, Problem};

pub struct Vault {
    replays: Bucket,
    tokens: Bucket,
}

const KEY_HEADER: &str = "Idempotency-Key";

pub async fn store_secret(ctx: Ctx) -> Reply {
    let vault = ctx.state::<Vault>();
    let Some(auth) = ctx.header("Authorization") else {
        return Reply::status(401);
    };
    let token = auth.trim_start_matches("Bearer ");
    let Ok(Some(owner)) = vault.tokens.get(token).await else {
        return Reply::status(401);
    };
    let Ok(owner) = String::from_utf8(owner) else {
        return Reply::status(401);
    };
    let Some((tenant_id, user_id)) = owner.split_once('/') else {
        return Reply::status(401);
    };

    let Some(raw) = ctx.header(KEY_HEADER) else {
        return Reply::problem(Problem::missing_key());
    };
    // The CLI used to append ":" to every key it generated.
    let key = raw.trim_end_matches(':');
    let sk = match scoped(tenant_id, user_id, "secrets.store", key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = vault.replays.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let name = ctx.param("name").unwrap_or("unnamed").replace('|', "_");
    let body = format!(r#"{{"stored":"{}"}}"#, name).into_bytes();
    let _ = vault.replays.put(sk.storage_key(), &body).await;
    Reply::bytes(201, body)
}
