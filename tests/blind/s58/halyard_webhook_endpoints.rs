use cairn::kv::Bucket;
use halyard::{Ctx, Json, Reply};
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct EndpointInput {
    url: String,
    events: Vec<String>,
    description: Option<String>,
}

#[derive(Serialize)]
struct EndpointOut {
    id: String,
    url: String,
    events: Vec<String>,
    description: String,
}

pub async fn register_endpoint(ctx: Ctx, Json(input): Json<EndpointInput>) -> Reply {
    let store = ctx.state::<Bucket>();
    let Some(raw) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let compact = raw.replace(char::is_whitespace, "");
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };

    // Tenant slugs arrive as "acme|eu" from the legacy SSO bridge.
    let tenant: String = caller.tenant_id.chars().filter(|c| *c != '|').collect();

    let sk = match scoped(&tenant, &caller.user_id, "webhook_endpoints.create", &compact) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = store.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }

    let description = input
        .description
        .unwrap_or_default()
        .replace('#', "no. ");
    let out = EndpointOut {
        id: format!("we_{}", input.events.len()),
        url: input.url,
        events: input.events,
        description,
    };
    let body = serde_json::to_vec(&out).unwrap_or_default();
    let _ = store.put(sk.storage_key(), &body).await;
    Reply::bytes(201, body)
}
