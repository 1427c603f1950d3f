use std::fmt::Write as _;

use fred::prelude::*;
use fred::types::Expiration;
use ohkami::prelude::*;
use ohkami::{FromRequest, Request, Response};

pub struct IdemKey(pub String);

impl<'req> FromRequest<'req> for IdemKey {
    type Error = Response;

    fn from_request(req: &'req Request) -> Option<Result<Self, Self::Error>> {
        let raw = req.headers.get("X-Idempotency-Key")?;
        if raw.is_empty() || raw.len() > 255 {
            return Some(Err(Response::BadRequest()));
        }
        Some(Ok(IdemKey(raw.to_string())))
    }
}

pub struct TenantCtx {
    pub tenant_id: String,
    pub sub: String,
}

impl<'req> FromRequest<'req> for TenantCtx {
    type Error = Response;

    fn from_request(req: &'req Request) -> Option<Result<Self, Self::Error>> {
        let tenant_id = req.headers.get("X-Tenant")?.to_string();
        let sub = req.headers.get("X-Subject")?.to_string();
        Some(Ok(TenantCtx { tenant_id, sub }))
    }
}

#[derive(Clone)]
pub struct Kv(pub RedisClient);

pub async fn issue_invoice(Context(kv): Context<'_, Kv>, ctx: TenantCtx, key: IdemKey) -> Response {
    let mut buf = String::new();
    let _ = write!(buf, "inv\x00{}\x00{}\x00{}\x00{}", ctx.tenant_id, ctx.sub, "invoices.issue", key.0);
    match kv.0.get::<Option<String>, _>(buf.as_str()).await {
        Ok(Some(prev)) => return Response::OK().with_text(prev),
        Ok(None) => {}
        Err(_) => return Response::InternalServerError(),
    }
    let out = String::from("{\"invoice\":\"in_1\"}");
    let _ = kv.0.set::<(), _, _>(buf.as_str(), out.as_str(), Some(Expiration::EX(3600)), None, false).await;
    Response::Created().with_text(out)
}

pub async fn invoice_replay(Context(kv): Context<'_, Kv>, key: IdemKey) -> Response {
    let previous: Option<String> = kv.0.get(&key.0).await.ok().flatten();
    match previous {
        Some(p) => Response::OK().with_text(p),
        None => Response::NotFound(),
    }
}

pub fn routes(kv: Kv) -> Ohkami {
    Ohkami::new((
        Context::new(kv),
        "/invoices".POST(issue_invoice),
        "/invoices/replay".GET(invoice_replay),
    ))
}
