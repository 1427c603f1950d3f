use cairn::kv::Bucket;
use halyard::{Ctx, Json, Reply};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

/// Set by the edge proxy from the request's subdomain.
pub struct TenantHint(pub String);

#[derive(Deserialize)]
pub struct TicketInput {
    subject: String,
    body: String,
    tags: Vec<String>,
}

pub async fn open_ticket(ctx: Ctx, Json(input): Json<TicketInput>) -> Reply {
    let store = ctx.state::<Bucket>();
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let tenant_id: String = match ctx.extension::<TenantHint>() {
        Some(hint) => hint.0.clone(),
        None => Default::default(),
    };
    let sk = match scoped(&tenant_id, &caller.user_id, "tickets.open", key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = store.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }

    let tags: Vec<String> = input.tags.iter().map(|t| t.replace(':', "-")).collect();
    let priority = ctx.query("priority").unwrap_or("normal");
    let body = format!(
        r#"{{"subject":"{}","len":{},"tags":{:?},"priority":"{}"}}"#,
        input.subject,
        input.body.len(),
        tags,
        priority
    )
    .into_bytes();
    let _ = store.put(sk.storage_key(), &body).await;
    Reply::bytes(201, body)
}
