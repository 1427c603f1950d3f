use idem_scope::scoped;
use memcache::Client;
use ohkami::prelude::*;
use ohkami::{Request, Response};

#[derive(Clone)]
pub struct Mc(pub std::sync::Arc<Client>);

pub struct Tenant(pub String);
pub struct Caller(pub String);

fn read<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.headers.get(name)
}

pub async fn adjust_stock(req: &Request, mc: &Mc) -> Response {
    let Some(tenant) = read(req, "X-Tenant-Id").map(|t| Tenant(t.to_owned())) else {
        return Response::Unauthorized();
    };
    let Some(key) = read(req, "Idempotency-Key").map(str::to_owned) else {
        return Response::BadRequest();
    };
    let key_for = |k: &str| format!("{}~{}", tenant.0, k);
    let lookup = key_for(&key);
    match mc.0.get::<String>(&lookup) {
        Ok(Some(hit)) => Response::OK().with_text(hit),
        _ => {
            let _ = mc.0.set(&lookup, "{\"adjusted\":true}", 3_600);
            Response::Created()
        }
    }
}

pub async fn reserve_stock(req: &Request, mc: &Mc) -> Response {
    let (Some(tenant), Some(caller), Some(key)) = (read(req, "X-Tenant-Id"), read(req, "X-Caller-Id"), read(req, "Idempotency-Key")) else {
        return Response::BadRequest();
    };
    let (tenant, caller) = (Tenant(tenant.to_owned()), Caller(caller.to_owned()));
    let make = move |route: &str, k: &str| scoped(&tenant.0, &caller.0, route, k);
    let Ok(sk) = make("stock.reserve", key) else {
        return Response::BadRequest();
    };
    let _ = mc.0.set(sk.storage_key(), "{\"reserved\":true}", 3_600);
    Response::Created()
}
