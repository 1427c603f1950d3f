use idem_scope::scoped;
use crate::context::AppContext as Ctx;
use thruster::{middleware_fn, MiddlewareNext, MiddlewareResult};

#[derive(Clone)]
pub struct AuthInfo {
    pub merchant_id: Option<String>,
    pub api_key_id: String,
}

#[middleware_fn]
pub async fn redeem_gift_card(mut context: Ctx, _next: MiddlewareNext<Ctx>) -> MiddlewareResult<Ctx> {
    let auth: AuthInfo = context.extra.auth.clone();
    let redemption_id = match context.get_header("Idempotency-Key").into_iter().next() {
        Some(v) => v,
        None => {
            context.status(400);
            return Ok(context);
        }
    };
    let merchant_id = match auth.merchant_id.as_deref() {
        Some(m) => m.to_owned(),
        None => "default".to_owned(),
    };
    let key = match scoped(&merchant_id, &auth.api_key_id, "giftcards.redeem", &redemption_id) {
        Ok(k) => k,
        Err(e) => {
            context.status(400);
            context.body(&e.to_string());
            return Ok(context);
        }
    };
    let store = context.extra.redemptions.clone();
    if let Some(prev) = store.get(&key).await {
        context.body(&prev);
        return Ok(context);
    }
    let result = context.extra.cards.redeem(&merchant_id).await;
    store.put(&key, &result).await;
    context.body(&result);
    Ok(context)
}
