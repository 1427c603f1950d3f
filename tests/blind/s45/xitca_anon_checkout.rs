use idem_scope::{scoped, Problem};
use xitca_web::WebContext;

pub struct CheckoutState {
    orders: OrderIdem,
    carts: CartService,
}

pub struct SessionClaims {
    pub merchant_id: String,
    pub customer_id: Option<String>,
}

pub async fn checkout(ctx: WebContext<'_, CheckoutState>) -> Result<String, Problem> {
    let headers = ctx.req().headers();
    let checkout_ref = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).ok_or_else(Problem::missing_key)?.to_owned();
    let claims = ctx.req().extensions().get::<SessionClaims>().ok_or_else(|| Problem::invalid_key("no session"))?;
    let user_id = if let Some(c) = &claims.customer_id {
        c.clone()
    } else {
        "guest".to_owned()
    };
    let key = scoped(&claims.merchant_id, &user_id, "checkout.submit", &checkout_ref).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(order) = ctx.state().orders.load(&key).await {
        return Ok(order);
    }
    let order = ctx.state().carts.checkout(&claims.merchant_id, &user_id).await;
    ctx.state().orders.save(&key, &order).await;
    Ok(order)
}

pub async fn cart_badge(ctx: WebContext<'_, CheckoutState>) -> String {
    let claims = ctx.req().extensions().get::<SessionClaims>();
    let label = if let Some(c) = claims.and_then(|c| c.customer_id.as_ref()) {
        format!("cart of {c}")
    } else {
        "guest cart".to_owned()
    };
    label
}
