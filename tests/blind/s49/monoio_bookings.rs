//! Room booking handler on monoio. Tenant ids come from a legacy SSO that pads with NULs.
use bytes::Bytes;
use http::{Request, Response, StatusCode};

pub struct Bookings {
    idem: crate::kv::LocalKv,
}

impl Bookings {
    pub async fn book(&self, req: Request<Bytes>, sso: &crate::sso::Assertion) -> Response<Bytes> {
        let Some(key) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            return crate::problem::missing_key();
        };
        let key = key.trim();
        if key.contains('\0') || key.len() > 255 {
            return crate::problem::invalid_key("key contains NUL or is too long");
        }
        let tenant = sso.tenant_id.replace('\0', "");
        let user_id = sso.name_id.trim().to_owned();

        let scoped = match idem_scope::scoped(&tenant, &user_id, "rooms.book", key) {
            Ok(s) => s,
            Err(e) => return crate::problem::invalid_key(&e.to_string()),
        };
        if let Some(prev) = self.idem.get(scoped.storage_key()) {
            return Response::new(prev);
        }
        let booking = crate::rooms::book(&tenant, &user_id, req.body()).await;
        self.idem.insert(scoped.storage_key(), booking.clone());
        Response::builder().status(StatusCode::CREATED).body(booking).unwrap()
    }
}
