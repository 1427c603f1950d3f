use std::sync::Arc;

use dashmap::DashMap;
use graphul::http::{HeaderMap, StatusCode};
use graphul::{extract::State, Context, IntoResponse};

use crate::carts::{Cart, CheckoutService};

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CartSlot {
    tenant: String,
    principal: String,
    route: &'static str,
    key: String,
}

#[derive(Clone)]
pub struct CheckoutState {
    replays: Arc<DashMap<CartSlot, Vec<u8>>>,
    checkout: CheckoutService,
}

pub struct Session {
    pub workspace_id: String,
    pub user_id: Option<String>,
    pub locale: Option<String>,
}

#[derive(Default)]
struct ScopeBuilder {
    tenant: String,
    principal: String,
    route: &'static str,
    key: String,
}

impl ScopeBuilder {
    fn tenant(mut self, v: impl Into<String>) -> Self {
        self.tenant = v.into();
        self
    }
    fn principal(mut self, v: impl Into<String>) -> Self {
        self.principal = v.into();
        self
    }
    fn route(mut self, v: &'static str) -> Self {
        self.route = v;
        self
    }
    fn key(mut self, v: impl Into<String>) -> Self {
        self.key = v.into();
        self
    }
    fn build(self) -> Result<CartSlot, &'static str> {
        if self.key.is_empty() || self.key.len() > 255 {
            return Err("Idempotency-Key must be 1..=255 bytes");
        }
        Ok(CartSlot { tenant: self.tenant, principal: self.principal, route: self.route, key: self.key })
    }
}

fn idem_header(headers: &HeaderMap) -> Option<&str> {
    headers.get("idempotency-key").and_then(|v| v.to_str().ok())
}

pub async fn checkout(c: Context, State(state): State<CheckoutState>) -> impl IntoResponse {
    let session: Session = match crate::session::from_cookie(c.headers()) {
        Some(s) => s,
        None => return (StatusCode::UNAUTHORIZED, Vec::new()),
    };
    let Some(key) = idem_header(c.headers()) else {
        return (StatusCode::BAD_REQUEST, b"Idempotency-Key required".to_vec());
    };
    let slot = match ScopeBuilder::default()
        .tenant(session.workspace_id.clone())
        .principal(session.user_id.clone().unwrap_or_default())
        .route("carts.checkout")
        .key(key)
        .build()
    {
        Ok(slot) => slot,
        Err(e) => return (StatusCode::BAD_REQUEST, e.as_bytes().to_vec()),
    };

    if let Some(prev) = state.replays.get(&slot) {
        return (StatusCode::OK, prev.clone());
    }
    let locale = session.locale.as_deref().unwrap_or("en");
    let cart: Cart = match c.payload().await {
        Ok(cart) => cart,
        Err(_) => return (StatusCode::UNPROCESSABLE_ENTITY, Vec::new()),
    };
    let order = state.checkout.place(&session.workspace_id, &cart, locale).await;
    let body = serde_json::to_vec(&order).unwrap_or_default();
    state.replays.insert(slot, body.clone());
    (StatusCode::CREATED, body)
}
