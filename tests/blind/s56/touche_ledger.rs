use std::sync::Arc;

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;
use touche::{Body, Request, Response, Server, StatusCode};

#[derive(Clone)]
struct Journal {
    entries: Arc<DashMap<String, Vec<u8>>>,
    books: crate::books::Books,
}

struct ApiAuth {
    tenant_id: String,
    user_id: String,
}

fn api_auth(req: &Request<Body>) -> Option<ApiAuth> {
    let token = req.headers().get("authorization")?.to_str().ok()?;
    crate::tokens::resolve(token)
}

fn audit_line(req: &Request<Body>, who: &ApiAuth) -> String {
    let ua = req.headers().get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or("-");
    let ua = ua.replace('\n', "\\n");
    format!("{} {} tenant={} user={} ua={}", req.method(), req.uri().path(), who.tenant_id, who.user_id, ua)
}

fn append(journal: &Journal, req: Request<Body>) -> Response<Body> {
    let Some(auth) = api_auth(&req) else {
        return Response::builder().status(StatusCode::UNAUTHORIZED).body(Body::empty()).unwrap();
    };
    log::info!("{}", audit_line(&req, &auth));
    let Some(idem) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()).map(String::from) else {
        return Response::builder().status(StatusCode::BAD_REQUEST).body(Body::empty()).unwrap();
    };

    let mut slot = String::with_capacity(128);
    slot.push_str(&auth.tenant_id);
    slot.push('\u{1f}');
    slot.push_str(&auth.user_id);
    slot.push('\u{1f}');
    slot.push_str("ledger.append");
    slot.push('\u{1f}');
    slot.push_str(&idem);

    match journal.entries.entry(slot) {
        Entry::Occupied(done) => Response::builder()
            .status(StatusCode::OK)
            .header("Idempotent-Replayed", "true")
            .body(Body::from(done.get().clone()))
            .unwrap(),
        Entry::Vacant(vacant) => {
            let body = req.into_body().into_bytes().unwrap_or_default();
            let posted = journal.books.append(&auth.tenant_id, &body);
            let out = serde_json::to_vec(&posted).unwrap_or_default();
            vacant.insert(out.clone());
            Response::builder().status(StatusCode::CREATED).body(Body::from(out)).unwrap()
        }
    }
}

fn list(journal: &Journal, req: Request<Body>) -> Response<Body> {
    let Some(auth) = api_auth(&req) else {
        return Response::builder().status(StatusCode::UNAUTHORIZED).body(Body::empty()).unwrap();
    };
    let q: crate::books::ListQuery = crate::books::ListQuery::from_query(req.uri().query());
    let limit = q.limit.unwrap_or(50).min(500);
    let page = journal.books.list(&auth.tenant_id, q.after.as_deref(), limit);
    Response::builder().status(StatusCode::OK).body(Body::from(serde_json::to_vec(&page).unwrap_or_default())).unwrap()
}

fn main() -> std::io::Result<()> {
    let journal = Journal { entries: Arc::new(DashMap::new()), books: crate::books::Books::open() };
    Server::bind("0.0.0.0:4080").serve(move |req: Request<Body>| {
        let res = match (req.method().as_str(), req.uri().path()) {
            ("POST", "/ledger/entries") => append(&journal, req),
            ("GET", "/ledger/entries") => list(&journal, req),
            _ => Response::builder().status(StatusCode::NOT_FOUND).body(Body::empty()).unwrap(),
        };
        Ok::<_, std::convert::Infallible>(res)
    })
}
