use std::sync::OnceLock;

use cairn::sync_kv::SyncKv;
use idem_scope::scoped;
use vial::prelude::*;

routes! {
    POST "/v1/orders/:id/status" => update_status;
    POST "/hooks/partner" => partner_hook;
}

static KV: OnceLock<SyncKv> = OnceLock::new();

fn kv() -> &'static SyncKv {
    KV.get_or_init(|| SyncKv::open("/var/lib/orders/replies").expect("open replies"))
}

struct Partner {
    tenant_id: String,
    client_id: String,
}

fn partner_from(req: &Request) -> Option<Partner> {
    let tenant_id = req.header("X-Partner-Tenant")?.to_string();
    let client_id = req.header("X-Partner-Client")?.to_string();
    Some(Partner { tenant_id, client_id })
}

fn update_status(req: Request) -> impl Responder {
    let (Some(partner), Some(key)) = (partner_from(&req), req.header("Idempotency-Key")) else {
        return Response::from(400);
    };
    let Ok(sk) = scoped(&partner.tenant_id, &partner.client_id, "orders.status", &key) else {
        return Response::from(400);
    };
    if let Ok(Some(prev)) = kv().get(sk.storage_key()) {
        return Response::from(200).with_body(String::from_utf8_lossy(&prev).into_owned());
    }
    let _ = kv().put(sk.storage_key(), req.body().as_bytes());
    Response::from(202)
}

fn partner_hook(req: Request) -> impl Responder {
    let Some(partner) = partner_from(&req) else {
        return Response::from(401);
    };
    let Some(delivery_id) = req.header("X-Delivery-Id").map(|v| v.to_string()) else {
        return Response::from(400);
    };
    let Ok(sk) = scoped(&partner.tenant_id, &partner.client_id, "orders.status", &delivery_id) else {
        return Response::from(400);
    };
    if kv().get(sk.storage_key()).ok().flatten().is_some() {
        return Response::from(200).with_header("X-Delivery-Id", &delivery_id);
    }
    let _ = kv().put(sk.storage_key(), req.body().as_bytes());
    Response::from(202)
}
