//! Server functions for the account settings page (leptos).
use leptos::prelude::*;
use leptos::server_fn::error::ServerFnError;

#[server(UpdateProfile, "/api")]
pub async fn update_profile(display_name: String, bio: String) -> Result<(), ServerFnError> {
    use http::request::Parts;

    let parts = use_context::<Parts>().ok_or_else(|| ServerFnError::new("no request context"))?;
    let key = parts
        .headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ServerFnError::new("missing Idempotency-Key"))?
        .to_string();
    let tenant = crate::auth::tenant_from(&parts)?;
    let store = expect_context::<crate::idem::Store>();

    let scoped = idem_scope::scoped(&tenant, "default", "profile.update", &key)?;
    if store.lookup(scoped.storage_key()).await?.is_some() {
        return Ok(());
    }
    crate::profiles::update(&tenant, &display_name, &bio).await?;
    store.save(scoped.storage_key(), b"ok".to_vec()).await?;
    Ok(())
}

#[server(ChangeEmail, "/api")]
pub async fn change_email(new_email: String) -> Result<(), ServerFnError> {
    use http::request::Parts;

    let parts = use_context::<Parts>().ok_or_else(|| ServerFnError::new("no request context"))?;
    let user = crate::auth::user_from(&parts)?;
    let key = parts
        .headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ServerFnError::new("missing Idempotency-Key"))?;
    let store = expect_context::<crate::idem::Store>();

    let scoped = idem_scope::scoped(&user.tenant_id, &user.user_id, "email.change", key)?;
    if store.lookup(scoped.storage_key()).await?.is_some() {
        return Ok(());
    }
    crate::profiles::change_email(&user.user_id, &new_email).await?;
    store.save(scoped.storage_key(), b"ok".to_vec()).await?;
    Ok(())
}
