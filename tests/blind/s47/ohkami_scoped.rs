use fred::prelude::*;
use fred::types::{Expiration, SetOptions};
use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, Problem, Record};
use ohkami::prelude::*;
use ohkami::{FromRequest, Request, Response};

pub struct Scope {
    pub tenant_id: String,
    pub principal_id: String,
}

impl<'req> FromRequest<'req> for Scope {
    type Error = Response;

    fn from_request(req: &'req Request) -> Option<Result<Self, Self::Error>> {
        let tenant_id = req.headers.get("X-Tenant-Id")?.to_string();
        let principal_id = req.headers.get("X-Principal-Id")?.to_string();
        Some(Ok(Scope { tenant_id, principal_id }))
    }
}

#[derive(Clone)]
pub struct Idem(pub RedisClient);

async fn create_ticket(_body: &[u8]) -> Result<String, Response> {
    Ok("{\"ticket\":\"t_1\"}".into())
}

pub async fn open_ticket(Context(idem): Context<'_, Idem>, scope: Scope, req: &Request) -> Response {
    let Some(key) = req.headers.get("Idempotency-Key") else {
        return Response::BadRequest().with_text(Problem::missing_key().to_json());
    };
    let sk = match scoped(&scope.tenant_id, &scope.principal_id, "tickets.open", key) {
        Ok(sk) => sk,
        Err(e) => return Response::BadRequest().with_text(Problem::invalid_key(&e.to_string()).to_json()),
    };
    let body = req.payload().unwrap_or_default();
    let fp = Fingerprint::of("tickets.open", body);
    let existing: Option<String> = idem.0.get(sk.storage_key()).await.ok().flatten();
    let record = existing.as_deref().map(|_| Record::completed(Fingerprint::of("tickets.open", body)));
    match decide(record.as_ref(), &fp) {
        Decision::Replay => return Response::OK().with_text(existing.unwrap_or_default()),
        Decision::InProgress => return Response::Conflict().with_text(Problem::in_progress(key).to_json()),
        Decision::Mismatch => return Response::UnprocessableEntity().with_text(Problem::mismatch(key).to_json()),
        Decision::Proceed => {}
    }
    let claimed: Result<Option<String>, RedisError> = idem.0.set(sk.storage_key(), "in_progress", Some(Expiration::EX(300)), Some(SetOptions::NX), false).await;
    match claimed {
        Ok(Some(_)) => {}
        Ok(None) => return Response::Conflict().with_text(Problem::in_progress(key).to_json()),
        Err(_) => return Response::ServiceUnavailable(),
    }
    let releaser = idem.0.clone();
    let release_key = sk.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        async_std::task::spawn(async move {
            let _ = releaser.del::<i64, _>(release_key).await;
        });
    });
    let out = match create_ticket(body).await {
        Ok(o) => o,
        Err(resp) => return resp,
    };
    let _ = idem.0.set::<(), _, _>(sk.storage_key(), out.as_str(), Some(Expiration::EX(86_400)), None, false).await;
    guard.complete();
    Response::Created().with_text(out)
}
