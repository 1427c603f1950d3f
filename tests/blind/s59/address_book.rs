use std::sync::Arc;

use futures::future::{self, Future};
use idem_scope::{scoped, Problem};
use shio::prelude::*;
use sluice::kv::SyncBucket;

use crate::addresses::{save_address, AddressInput};
use crate::principal::Principal;

const RS: char = '\u{1e}';

pub fn routes(app: Shio, replays: Arc<SyncBucket>) -> Shio {
    app.route((Method::POST, "/addresses", move |ctx: Context| create(&replays, ctx)))
}

fn create(replays: &SyncBucket, ctx: Context) -> BoxFuture<Response, shio::errors::Error> {
    let who = ctx.get::<Principal>().clone();
    let Some(client_key) = ctx.headers().get_raw("Idempotency-Key").and_then(|v| v.one()).map(|b| String::from_utf8_lossy(b).into_owned()) else {
        return Box::new(future::ok(Response::with((StatusCode::BadRequest, Problem::missing_key().to_json()))));
    };
    // legacy SSO subjects sometimes carry a record separator
    let user_id: String = who.subject.chars().filter(|c| *c != '\u{1e}').collect();
    let label = who.display_label.replace(RS, " ");

    let sk = match scoped(&who.tenant_id, &user_id, "addresses.create", &client_key) {
        Ok(k) => k,
        Err(e) => return Box::new(future::ok(Response::with((StatusCode::BadRequest, Problem::invalid_key(&e.to_string()).to_json())))),
    };
    if let Ok(Some(prev)) = replays.get::<Vec<u8>>(sk.storage_key()) {
        return Box::new(future::ok(Response::with((StatusCode::Ok, prev))));
    }
    let pending = match replays.begin(sk.storage_key()) {
        Ok(p) => p,
        Err(_) => return Box::new(future::ok(Response::with((StatusCode::Conflict, Problem::in_progress(&client_key).to_json())))),
    };
    Box::new(ctx.body().concat2().map(move |raw| {
        let input: AddressInput = match serde_json::from_slice(&raw) {
            Ok(i) => i,
            Err(e) => return Response::with((StatusCode::UnprocessableEntity, e.to_string())),
        };
        let saved = save_address(&who.tenant_id, &user_id, &label, &input);
        let out = serde_json::to_vec(&saved).unwrap_or_default();
        pending.complete(&out);
        Response::with((StatusCode::Created, out))
    }))
}
