use std::sync::Arc;

use futures::future::{self, Future};
use idem_scope::{Fingerprint, Problem};
use shio::prelude::*;
use sluice::kv::SyncBucket;

use crate::orders::{place_order, cancel_order, OrderDraft};
use crate::principal::Principal;

#[derive(Clone)]
pub struct Intake {
    bucket: Arc<SyncBucket>,
}

impl Intake {
    pub fn routes(self, app: Shio) -> Shio {
        let a = self.clone();
        let b = self.clone();
        app.route((Method::POST, "/orders", move |ctx: Context| a.place(ctx)))
            .route((Method::POST, "/orders/cancel", move |ctx: Context| b.cancel(ctx)))
    }

    fn place(&self, ctx: Context) -> BoxFuture<Response, shio::errors::Error> {
        let Some(key) = ctx.headers().get_raw("Idempotency-Key").and_then(|v| v.one()).map(|b| String::from_utf8_lossy(b).into_owned()) else {
            return Box::new(future::ok(Response::with((StatusCode::BadRequest, Problem::missing_key().to_json()))));
        };
        let who = ctx.get::<Principal>().clone();
        let slot = pot::to_vec(&(who.tenant_id.as_str(), key.as_str())).unwrap_or_default();
        let bucket = self.bucket.clone();
        Box::new(ctx.body().concat2().map(move |raw| {
            let fp = Fingerprint::of("orders.place", &raw);
            if let Ok(Some((prev_fp, prev))) = bucket.get::<(Vec<u8>, Vec<u8>)>(&slot) {
                if prev_fp == fp.as_bytes() {
                    return Response::with((StatusCode::Ok, prev));
                }
                return Response::with((StatusCode::UnprocessableEntity, Problem::mismatch(&key).to_json()));
            }
            let draft: OrderDraft = match serde_json::from_slice(&raw) {
                Ok(d) => d,
                Err(e) => return Response::with((StatusCode::BadRequest, e.to_string())),
            };
            let out = serde_json::to_vec(&place_order(&who, &draft)).unwrap_or_default();
            let _ = bucket.put(&slot, &(fp.as_bytes().to_vec(), out.clone()));
            Response::with((StatusCode::Created, out))
        }))
    }

    fn cancel(&self, ctx: Context) -> BoxFuture<Response, shio::errors::Error> {
        let Some(key) = ctx.headers().get_raw("Idempotency-Key").and_then(|v| v.one()).map(|b| String::from_utf8_lossy(b).into_owned()) else {
            return Box::new(future::ok(Response::with((StatusCode::BadRequest, Problem::missing_key().to_json()))));
        };
        let who = ctx.get::<Principal>().clone();
        let slot = pot::to_vec(&(who.tenant_id.as_str(), who.user_id.as_str(), "orders.cancel", key.as_str())).unwrap_or_default();
        if let Ok(Some(prev)) = self.bucket.get::<Vec<u8>>(&slot) {
            return Box::new(future::ok(Response::with((StatusCode::Ok, prev))));
        }
        let out = serde_json::to_vec(&cancel_order(&who)).unwrap_or_default();
        let _ = self.bucket.put(&slot, &out);
        Box::new(future::ok(Response::with((StatusCode::Ok, out))))
    }
}
