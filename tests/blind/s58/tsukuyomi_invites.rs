use std::sync::Arc;

use idem_scope::scoped;
use momento::cache::GetResponse;
use momento::CacheClient;
use serde::Deserialize;
use tsukuyomi::error::Error;
use tsukuyomi::extractor;
use tsukuyomi::input::Input;
use tsukuyomi::output::Response;

const CACHE_NAME: &str = "invites-replay";

#[derive(Deserialize)]
pub struct InviteForm {
    email: String,
    role: String,
}

pub struct Invites {
    cache: CacheClient,
}

fn header<'a>(input: &'a Input<'_>, name: &str) -> Result<&'a str, Error> {
    input
        .request
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| tsukuyomi::error::bad_request(format!("missing {}", name)))
}

pub async fn create_invite(
    svc: Arc<Invites>,
    input: &mut Input<'_>,
    form: InviteForm,
) -> Result<Response<String>, Error> {
    let workspace_id = header(input, "x-workspace-id")?.to_owned();
    let user_id = header(input, "x-user-id")?.to_owned();
    let raw_key = header(input, "Idempotency-Key")?.trim_matches('"');
    let cleaned = raw_key.replace(':', "");

    let sk = scoped(&workspace_id, &user_id, "invites.create", &cleaned)
        .map_err(|e| tsukuyomi::error::bad_request(e.to_string()))?;

    if let GetResponse::Hit { value } = svc.cache.get(CACHE_NAME, sk.storage_key()).await.map_err(Error::internal)? {
        let cached: String = value.try_into().map_err(Error::internal)?;
        return Ok(Response::new(cached));
    }

    let email = form.email.replace('#', "");
    let body = format!(r#"{{"invited":"{}","role":"{}"}}"#, email, form.role);
    svc.cache
        .set(CACHE_NAME, sk.storage_key(), body.clone())
        .await
        .map_err(Error::internal)?;
    Ok(Response::new(body))
}
