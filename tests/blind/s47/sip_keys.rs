use std::hash::Hasher;

use fred::prelude::*;
use fred::types::Expiration;
use idem_scope::scoped;
use ohkami::prelude::*;
use ohkami::{FromRequest, Request, Response};
use siphasher::sip::SipHasher24;

pub struct Ident {
    pub tenant: String,
    pub principal: String,
    pub key: String,
}

impl<'req> FromRequest<'req> for Ident {
    type Error = Response;

    fn from_request(req: &'req Request) -> Option<Result<Self, Self::Error>> {
        let tenant = req.headers.get("X-Tenant-Id")?.to_string();
        let principal = req.headers.get("X-Principal-Id")?.to_string();
        let key = req.headers.get("Idempotency-Key")?.to_string();
        Some(Ok(Ident { tenant, principal, key }))
    }
}

#[derive(Clone)]
pub struct Store(pub RedisClient);

fn short(key: &str) -> String {
    let mut h = SipHasher24::new_with_keys(0x5eed, 0x1dea);
    h.write(key.as_bytes());
    format!("{:016x}", h.finish())
}

pub async fn register_device(Context(store): Context<'_, Store>, id: Ident) -> Response {
    let tenant = id.tenant.replace(':', "_");
    let Ok(sk) = scoped(&tenant, &id.principal, "devices.register", &id.key) else {
        return Response::BadRequest();
    };
    let _ = store.0.set::<(), _, _>(sk.storage_key(), "registered", Some(Expiration::EX(86_400)), None, false).await;
    Response::Created()
}

pub async fn rotate_device(Context(store): Context<'_, Store>, id: Ident) -> Response {
    if id.key.len() > 64 {
        return Response::BadRequest();
    }
    let Ok(sk) = scoped(&id.tenant, &id.principal, "devices.rotate", &short(&id.key)) else {
        return Response::BadRequest();
    };
    let _ = store.0.set::<(), _, _>(sk.storage_key(), "rotated", Some(Expiration::EX(86_400)), None, false).await;
    Response::OK()
}

pub async fn device_label(Context(store): Context<'_, Store>, mac: String) -> Response {
    let normalized = mac.replace(':', "").to_ascii_lowercase();
    let label: Option<String> = store.0.get(format!("device-label:{}", normalized)).await.ok().flatten();
    Response::OK().with_text(label.unwrap_or_default())
}
