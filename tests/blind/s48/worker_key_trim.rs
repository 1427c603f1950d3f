use idem_scope::scoped;
use worker::*;

struct Tenant {
    tenant_id: String,
    principal_id: String,
}

fn tenant_of(req: &Request) -> Result<Tenant> {
    let h = req.headers();
    Ok(Tenant {
        tenant_id: h.get("x-tenant-id")?.ok_or_else(|| Error::RustError("401".into()))?,
        principal_id: h.get("x-principal-id")?.ok_or_else(|| Error::RustError("401".into()))?,
    })
}

fn normalise_key(raw: &str) -> String {
    raw.trim_matches('|').to_string()
}

fn base_url(env: &Env) -> Result<String> {
    Ok(env.var("UPSTREAM")?.to_string().trim_end_matches('/').to_owned())
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let t = tenant_of(&req)?;
    let Some(raw) = req.headers().get("Idempotency-Key")? else {
        return Response::error("missing Idempotency-Key", 400);
    };
    let ck = normalise_key(&raw);
    let key = scoped(&t.tenant_id, &t.principal_id, "exports.start", &ck).map_err(|e| Error::RustError(e.to_string()))?;
    let kv = env.kv("EXPORT_IDEMPOTENCY")?;
    if let Some(prev) = kv.get(key.storage_key()).text().await? {
        return Response::ok(prev);
    }
    let upstream = format!("{}/exports", base_url(&env)?);
    let mut init = RequestInit::new();
    init.with_method(Method::Post);
    let resp_text = Fetch::Request(Request::new_with_init(&upstream, &init)?).send().await?.text().await?;
    kv.put(key.storage_key(), &resp_text)?.execute().await?;
    Response::ok(resp_text)
}
