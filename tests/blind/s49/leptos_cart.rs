//! Cart server functions (leptos). Anonymous shoppers get a cart too.
use leptos::prelude::*;
use leptos::server_fn::error::ServerFnError;

#[derive(Clone, Debug, PartialEq)]
pub enum Principal {
    User(String),
    Anonymous,
}

impl std::fmt::Display for Principal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Principal::User(id) => f.write_str(id),
            Principal::Anonymous => f.write_str("anonymous"),
        }
    }
}

#[server(Checkout, "/api")]
pub async fn checkout(cart_id: String) -> Result<String, ServerFnError> {
    let parts = use_context::<http::request::Parts>().ok_or_else(|| ServerFnError::new("no request"))?;
    let key = parts
        .headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ServerFnError::new("missing Idempotency-Key"))?
        .to_owned();
    let session = crate::session::from_parts(&parts).await?;
    let principal = session.principal().unwrap_or(Principal::Anonymous);
    let principal_id = principal.to_string();

    let store = expect_context::<crate::idem::Store>();
    let scoped = idem_scope::scoped(&session.tenant_id, &principal_id, "cart.checkout", &key)?;
    if let Some(order) = store.lookup(scoped.storage_key()).await? {
        return Ok(order);
    }
    let order = crate::orders::from_cart(&session.tenant_id, &cart_id).await?;
    store.save(scoped.storage_key(), order.clone()).await?;
    Ok(order)
}

#[server(CartBadge, "/api")]
pub async fn cart_badge() -> Result<u32, ServerFnError> {
    let parts = use_context::<http::request::Parts>().ok_or_else(|| ServerFnError::new("no request"))?;
    let session = crate::session::from_parts(&parts).await?;
    let principal = session.principal().unwrap_or(Principal::Anonymous);
    let cache = expect_context::<crate::cache::BadgeCache>();
    Ok(cache.get(&format!("badge:{principal}")).await.unwrap_or(0))
}
