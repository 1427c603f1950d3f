use fastly::http::StatusCode;
use fastly::kv_store::KVStore;
use fastly::{ConfigStore, Error, Request, Response};
use idem_scope::{scoped, Fingerprint, Problem};

const CALLER_UNKNOWN: &str = "unknown-caller";

struct Signup {
    plan: String,
    seats: u32,
}

fn problem(p: Problem) -> Response {
    Response::from_status(p.status())
        .with_header("content-type", idem_scope::PROBLEM_CONTENT_TYPE)
        .with_body(p.to_json())
}

fn cache_control(req: &Request) -> &str {
    req.get_header_str("x-cache-scope").unwrap_or("public")
}

#[fastly::main]
fn main(mut req: Request) -> Result<Response, Error> {
    let partners = ConfigStore::open("partners");
    let Some(merchant_id) = req.get_header_str("x-partner").and_then(|p| partners.get(p)) else {
        return Ok(problem(Problem::invalid_key("unknown partner")));
    };
    let caller_id = req.get_header_str("x-partner-user").unwrap_or(CALLER_UNKNOWN).to_owned();
    let Some(key) = req.get_header_str("idempotency-key").map(str::to_owned) else {
        return Ok(problem(Problem::missing_key()));
    };
    let sk = match scoped(&merchant_id, &caller_id, "signups.create", &key) {
        Ok(sk) => sk,
        Err(e) => return Ok(problem(Problem::invalid_key(&e.to_string()))),
    };
    let cc = format!("{}, max-age=60", cache_control(&req));

    let body = req.take_body_bytes();
    let fp = Fingerprint::of("signups.create", &body);
    let store = KVStore::open("signup_replays")?.expect("kv linked");
    if let Some(mut hit) = store.lookup(sk.storage_key())? {
        let stored = hit.take_body_bytes();
        if !stored.starts_with(fp.as_bytes()) {
            return Ok(problem(Problem::mismatch(&key)));
        }
        return Ok(Response::from_status(StatusCode::OK)
            .with_header("cache-control", cc)
            .with_body(stored[32..].to_vec()));
    }

    let signup: Signup = crate::signup::parse(&body)?;
    let created = crate::signup::create(&merchant_id, &signup.plan, signup.seats)?;
    let mut record = fp.as_bytes().to_vec();
    record.extend_from_slice(&created);
    store.insert(sk.storage_key(), record)?;
    Ok(Response::from_status(StatusCode::CREATED).with_header("cache-control", cc).with_body(created))
}
