use brindle::auth::MaybeAuth;
use brindle::{Ctx, Json, Reply, State, Status};
use idem_scope::{scoped, Fingerprint, Problem};
use serde::Deserialize;
use sluice::kv::Bucket;

use crate::carts::{checkout_cart, CartId};

#[derive(Deserialize)]
pub struct CheckoutBody {
    pub cart_id: CartId,
    pub shipping_option: String,
}

pub async fn checkout(State(replays): State<Bucket>, ctx: Ctx, MaybeAuth(auth): MaybeAuth, Json(body): Json<CheckoutBody>) -> Reply {
    tracing::debug!(org = auth.as_ref().map_or("unknown", |a| a.org_id.as_str()), cart = %body.cart_id, "checkout");
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let org_id = auth.as_ref().map_or("public", |a| a.org_id.as_str());
    let Some(user_id) = auth.as_ref().map(|a| a.user_id.clone()).or_else(|| ctx.cookie("guest_session")) else {
        return Reply::status(Status::UNAUTHORIZED);
    };
    let sk = match scoped(org_id, &user_id, "cart.checkout", client_key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    let fp = Fingerprint::of("cart.checkout", ctx.raw_body());
    if let Ok(Some((prev_fp, prev))) = replays.get::<(Vec<u8>, Vec<u8>)>(sk.storage_key()).await {
        if prev_fp != fp.as_bytes() {
            return Reply::problem(Problem::mismatch(client_key));
        }
        return Reply::bytes(Status::OK, prev).header("Idempotent-Replayed", "true");
    }
    let order = match checkout_cart(org_id, &user_id, &body.cart_id, &body.shipping_option).await {
        Ok(o) => o,
        Err(e) => return Reply::status(Status::CONFLICT).text(e.to_string()),
    };
    let out = serde_json::to_vec(&order).unwrap_or_default();
    let _ = replays.put(sk.storage_key(), &(fp.as_bytes().to_vec(), out.clone())).await;
    Reply::bytes(Status::CREATED, out)
}
