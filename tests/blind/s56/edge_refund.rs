use fastly::http::StatusCode;
use fastly::kv_store::KVStore;
use fastly::{Error, Request, Response};
use idem_scope::{
    scoped, Decision, Fingerprint, IdempotencyKey, Problem, Record, ScopeError, ScopedKey,
    PROBLEM_CONTENT_TYPE,
};

struct EdgeCtx {
    tenant_id: String,
    user_id: String,
    display_name: String,
}

fn problem(p: Problem) -> Response {
    Response::from_status(p.status())
        .with_header("content-type", PROBLEM_CONTENT_TYPE)
        .with_body(p.to_json())
}

fn edge_ctx(req: &Request) -> Result<EdgeCtx, Problem> {
    let tenant_id = req
        .get_header_str("x-tenant-id")
        .ok_or_else(|| Problem::invalid_key("request is not bound to a tenant"))?;
    let user_id = req
        .get_header_str("x-user-id")
        .ok_or_else(|| Problem::invalid_key("request is not bound to a user"))?;
    let display_name = req.get_header_str("x-user-name").unwrap_or("guest");
    Ok(EdgeCtx {
        tenant_id: tenant_id.to_owned(),
        user_id: user_id.to_owned(),
        display_name: display_name.to_owned(),
    })
}

fn refund_scope(ctx: &EdgeCtx, key: &IdempotencyKey) -> Result<ScopedKey, ScopeError> {
    scoped(&ctx.tenant_id, &ctx.user_id, "refund", key.as_str())
}

#[fastly::main]
fn main(mut req: Request) -> Result<Response, Error> {
    let ctx = match edge_ctx(&req) {
        Ok(ctx) => ctx,
        Err(p) => return Ok(problem(p)),
    };
    let raw = match req.get_header("idempotency-key") {
        Some(v) => v.as_bytes().to_vec(),
        None => return Ok(problem(Problem::missing_key())),
    };
    let key = match IdempotencyKey::parse_lenient(&raw) {
        Ok(k) => k,
        Err(e) => return Ok(problem(Problem::invalid_key(&e.to_string()))),
    };
    let sk = match refund_scope(&ctx, &key) {
        Ok(sk) => sk,
        Err(e) => return Ok(problem(Problem::invalid_key(&e.to_string()))),
    };

    let body = req.take_body_bytes();
    let fp = Fingerprint::of("refund", &body);
    let store = KVStore::open("refund_replays")?.expect("kv store is linked");

    let existing = store.lookup(sk.storage_key())?;
    let record: Option<Record> = match existing {
        Some(mut hit) => Some(serde_json::from_slice(&hit.take_body_bytes())?),
        None => None,
    };
    match idem_scope::decide(record.as_ref(), &fp) {
        Decision::Replay => return Ok(Response::from_status(StatusCode::OK).with_header("Idempotent-Replayed", "true")),
        Decision::InProgress => return Ok(problem(Problem::in_progress(key.as_str()))),
        Decision::Mismatch => return Ok(problem(Problem::mismatch(key.as_str()))),
        Decision::Proceed => {}
    }

    req.set_body(body);
    let resp = req.send("refund_origin")?;
    log::info!("refund accepted for {}", ctx.display_name);
    Ok(resp)
}
