use cairn::kv::Bucket;
use halyard::auth::ServiceToken;
use halyard::{Ctx, Reply};
use idem_scope::{scoped, Problem};
use serde::Serialize;

#[derive(Serialize)]
struct RotatedSecret {
    account: String,
    secret_hint: String,
}

pub async fn rotate_secret(ctx: Ctx) -> Reply {
    let store = ctx.state::<Bucket>();
    let Some(token) = ctx.extension::<ServiceToken>() else {
        return Reply::status(401);
    };
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };

    // Service tokens are not bound to a person, so the principal slot stays empty.
    let sk = match scoped(&token.tenant_id, "", "service_accounts.rotate", key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = store.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let secret = format!("sk_{}_{}", token.tenant_id, token.account_id);
    let out = RotatedSecret { account: token.account_id.clone(), secret_hint: secret[..6].to_owned() };
    let body = serde_json::to_vec(&out).unwrap_or_default();
    let _ = store.put(sk.storage_key(), &body).await;
    Reply::bytes(200, body)
}

pub async fn rotate_secret_for_user(ctx: Ctx) -> Reply {
    let store = ctx.state::<Bucket>();
    let (Some(caller), Some(key)) = (ctx.caller(), ctx.header("Idempotency-Key")) else {
        return Reply::status(400);
    };
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "service_accounts.rotate", key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = store.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let _ = store.put(sk.storage_key(), b"{\"rotated\":true}").await;
    Reply::bytes(200, b"{\"rotated\":true}".to_vec())
}
