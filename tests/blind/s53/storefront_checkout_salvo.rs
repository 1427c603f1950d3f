use salvo::prelude::*;
use serde::{Deserialize, Serialize};

use crate::replay::CartReplays;
use crate::session::SessionData;
use crate::storefront::{Checkout, CheckoutResult};

#[derive(Deserialize)]
struct CheckoutBody {
    cart_id: String,
    shipping_option: String,
}

#[derive(Serialize)]
struct Receipt<'a> {
    order_ref: &'a str,
    total_cents: i64,
}

#[handler]
pub async fn checkout(req: &mut Request, depot: &mut Depot, res: &mut Response) {
    let session = depot.get::<SessionData>("session").ok().cloned();
    let Ok(merchant_id) = depot.get::<String>("merchant_id").cloned() else {
        res.status_code(StatusCode::NOT_FOUND);
        return;
    };
    let principal = session.as_ref().and_then(|s| s.user_id.as_deref()).unwrap_or("anonymous").to_owned();
    let locale = session.as_ref().and_then(|s| s.locale.as_deref()).unwrap_or("en-GB").to_owned();

    let Some(idem) = req.header::<String>("Idempotency-Key") else {
        res.status_code(StatusCode::BAD_REQUEST);
        return;
    };
    let key = match idem_scope::scoped(&merchant_id, &principal, "storefront.checkout", &idem) {
        Ok(k) => k,
        Err(e) => {
            res.status_code(StatusCode::BAD_REQUEST);
            res.render(Text::Plain(e.to_string()));
            return;
        }
    };
    let replays = depot.obtain::<CartReplays>().expect("replays configured");
    if let Some(prev) = replays.lookup(&key).await {
        res.render(Text::Json(prev));
        return;
    }
    let Ok(body) = req.parse_json::<CheckoutBody>().await else {
        res.status_code(StatusCode::BAD_REQUEST);
        return;
    };
    let checkout = depot.obtain::<Checkout>().expect("checkout configured");
    let result: CheckoutResult = match checkout.run(&merchant_id, &body.cart_id, &body.shipping_option, &locale).await {
        Ok(r) => r,
        Err(e) => {
            res.status_code(StatusCode::CONFLICT);
            res.render(Text::Plain(e.to_string()));
            return;
        }
    };
    let json = serde_json::to_string(&Receipt { order_ref: &result.order_ref, total_cents: result.total_cents }).unwrap_or_default();
    replays.save(&key, &json).await;
    res.render(Text::Json(json));
}
