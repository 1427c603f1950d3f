use std::io::Read;

use hmac::{Hmac, Mac};
use sha2::Sha256;
use tiny_http::{Request, Response};

pub struct HookReceiver {
    /// Client requests: keyed by the scoped client key.
    client_records: ClientRecordStore,
    /// Provider deliveries only; no client key is ever written here.
    delivery_log: DeliveryLog,
    secret: Vec<u8>,
    jobs: JobQueue,
}

#[derive(serde::Deserialize)]
struct Delivery {
    id: String,
    kind: String,
    account_id: String,
}

impl HookReceiver {
    pub fn on_client_call(&self, req: &mut Request, who: &Caller) -> Response<std::io::Cursor<Vec<u8>>> {
        let Some(k) = req.headers().iter().find(|h| h.field.equiv("Idempotency-Key")).map(|h| h.value.to_string()) else {
            return Response::from_string("missing key").with_status_code(400);
        };
        let key = match idem_scope::scoped(&who.account_id, &who.user_id, "hooks.replay", &k) {
            Ok(key) => key,
            Err(e) => return Response::from_string(e.to_string()).with_status_code(400),
        };
        if let Some(prev) = self.client_records.get(&key) {
            return Response::from_data(prev);
        }
        let out = self.jobs.replay_for(&who.account_id);
        self.client_records.put(&key, &out);
        Response::from_data(out)
    }

    pub fn on_provider_delivery(&self, req: &mut Request) -> Response<std::io::Cursor<Vec<u8>>> {
        let mut raw = Vec::new();
        if req.as_reader().read_to_end(&mut raw).is_err() {
            return Response::from_string("unreadable").with_status_code(400);
        }
        let sig = req.headers().iter().find(|h| h.field.equiv("X-Signature")).map(|h| h.value.to_string()).unwrap_or_default();
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.secret).expect("hmac accepts any key size");
        mac.update(&raw);
        if mac.verify_slice(&hex::decode(sig).unwrap_or_default()).is_err() {
            return Response::from_string("bad signature").with_status_code(401);
        }
        let delivery: Delivery = match serde_json::from_slice(&raw) {
            Ok(d) => d,
            Err(_) => return Response::from_string("bad payload").with_status_code(400),
        };
        if !self.delivery_log.insert_if_new(&delivery.id) {
            return Response::from_string("duplicate").with_status_code(200);
        }
        self.jobs.enqueue(&delivery.account_id, &delivery.kind, &raw);
        Response::from_string("ok")
    }
}
