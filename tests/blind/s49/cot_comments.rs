//! Comment posting on the community site (cot). Guests may comment on public threads.
use cot::request::Request;
use cot::response::Response;
use cot::{Body, StatusCode};

use crate::kv::Store;

const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

pub async fn post_comment(request: Request, store: Store) -> cot::Result<Response> {
    let key = request
        .headers()
        .get(IDEMPOTENCY_KEY)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| cot::Error::custom("missing Idempotency-Key"))?
        .to_owned();
    let session = crate::auth::session(&request).await?;
    let org_id = session.org_id.clone();
    let user_id = session.user_id.as_deref().unwrap_or("anonymous");
    let display = session.display_name.as_deref().unwrap_or("anonymous");
    let locale = session.locale.as_deref().unwrap_or("en");

    let scoped = idem_scope::scoped(&org_id, user_id, "comments.post", &key)?;
    if let Some(prev) = store.lookup(scoped.storage_key()).await? {
        return Ok(Response::new(StatusCode::OK, Body::fixed(prev)));
    }
    let comment = crate::comments::create(&org_id, display, locale, request.into_body()).await?;
    store.save(scoped.storage_key(), comment.clone()).await?;
    Ok(Response::new(StatusCode::CREATED, Body::fixed(comment)))
}
