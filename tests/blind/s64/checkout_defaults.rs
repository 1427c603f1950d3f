use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct Checkout {
    pub cart_id: String,
    pub currency: Option<String>,
    pub timezone: Option<String>,
    pub phone: Option<String>,
}

pub struct CheckoutState {
    pub locker: Locker,
    pub carts: crate::carts::Carts,
}

pub async fn checkout(st: &CheckoutState, caller: Caller, head: Head, Json(c): Json<Checkout>) -> Reply {
    let Some(key) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let currency = c.currency.clone().unwrap_or_else(|| "USD".to_owned());
    let tz = c.timezone.as_deref().unwrap_or("UTC");
    let phone: String = c.phone.as_deref().unwrap_or_default().chars().filter(|ch| ch.is_ascii_digit()).collect();

    let sk = match scoped(caller.tenant_id(), caller.user_id(), "checkout", key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = st.locker.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let order = match st.carts.checkout(caller.tenant_id(), &c.cart_id, &currency, tz, &phone).await {
        Ok(o) => o,
        Err(_) => return Reply::status(Status::CONFLICT),
    };
    let body = serde_json::to_vec(&order).unwrap_or_default();
    let _ = st.locker.put(sk.storage_key(), &body, Duration::from_secs(86_400)).await;
    Reply::bytes(Status::CREATED, body)
}
