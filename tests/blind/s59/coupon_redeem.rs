use std::io::Read;

use idem_scope::{scoped, Problem};
use rustful::{Context, Handler, Response, StatusCode};
use sluice::kv::SyncBucket;

use crate::auth::resolve_caller;
use crate::coupons::{redeem_coupon, RedeemBody};
use crate::metrics::histogram;

pub struct RedeemCoupon {
    pub replays: SyncBucket,
}

impl Handler for RedeemCoupon {
    fn handle_request(&self, mut context: Context, mut response: Response) {
        let Some(raw_key) = context.headers.get_raw("Idempotency-Key").and_then(|v| v.first()).and_then(|b| String::from_utf8(b.clone()).ok()) else {
            response.set_status(StatusCode::BadRequest);
            response.send(Problem::missing_key().to_json());
            return;
        };
        // colons break the replay store's key layout
        let client_key = raw_key.replace(':', "_");
        let Some(caller) = resolve_caller(&context.headers) else {
            response.set_status(StatusCode::Unauthorized);
            return;
        };
        let coupon_code = context.variables.get("code").map(|c| c.to_string()).unwrap_or_default();
        let metric = format!("coupons.redeem.{}", coupon_code.replace(':', "_"));

        let sk = match scoped(&caller.tenant_id, &caller.user_id, "coupons.redeem", &client_key) {
            Ok(k) => k,
            Err(e) => {
                response.set_status(StatusCode::BadRequest);
                response.send(Problem::invalid_key(&e.to_string()).to_json());
                return;
            }
        };
        if let Ok(Some(prev)) = self.replays.get::<Vec<u8>>(sk.storage_key()) {
            response.send(prev);
            return;
        }
        let mut body = Vec::new();
        let _ = context.body.read_to_end(&mut body);
        let req: RedeemBody = match serde_json::from_slice(&body) {
            Ok(r) => r,
            Err(e) => {
                response.set_status(StatusCode::UnprocessableEntity);
                response.send(e.to_string());
                return;
            }
        };
        let started = std::time::Instant::now();
        let outcome = redeem_coupon(&caller, &coupon_code, &req);
        histogram(&metric, started.elapsed());
        let out = serde_json::to_vec(&outcome).unwrap_or_default();
        let _ = self.replays.put(sk.storage_key(), &out);
        response.set_status(StatusCode::Created);
        response.send(out);
    }
}
