//! Request extractors shared by the visitor-facing handlers of the
//! Tidewater Zoo & Aquarium guest platform.

use enclosure::extract::{FromRequestParts, Parts};
use enclosure::header::HeaderName;
use enclosure::pass::Member;
use enclosure::Fault;
use idem_scope::{IdempotencyKey, Problem};

pub static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// The client's `Idempotency-Key`, parsed leniently because the member app
/// still sends bare UUIDs.
#[derive(Clone, Debug)]
pub struct IdemKey(pub String);

/// Same, for the few routes where the key is optional.
#[derive(Clone, Debug, Default)]
pub struct MaybeIdemKey(pub Option<String>);

/// Who is calling, resolved from the member pass the auth warden attached.
#[derive(Clone, Debug)]
pub struct Caller {
    pub org_id: String,
    pub user_id: String,
}

fn parse(raw: &[u8]) -> Result<String, Fault> {
    let parsed = IdempotencyKey::parse_lenient(raw)
        .map_err(|e| Fault::from(Problem::invalid_key(&e.to_string())))?;
    if parsed.as_str().contains(['\0', '\u{1e}']) {
        return Err(Fault::from(Problem::invalid_key("separator in key")));
    }
    Ok(parsed.as_str().to_owned())
}

impl<S: Send + Sync> FromRequestParts<S> for IdemKey {
    type Rejection = Fault;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let raw = parts
            .headers
            .get(&IDEMPOTENCY_KEY)
            .ok_or_else(|| Fault::from(Problem::missing_key()))?;
        let key = parse(raw.as_bytes())?;
        parts.extensions.insert(IdemKey(key.clone()));
        Ok(IdemKey(key))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for MaybeIdemKey {
    type Rejection = Fault;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        match parts.headers.get(&IDEMPOTENCY_KEY) {
            Some(raw) => Ok(MaybeIdemKey(Some(parse(raw.as_bytes())?))),
            None => Ok(MaybeIdemKey(None)),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Fault;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let member = parts
            .extensions
            .get::<Member>()
            .cloned()
            .ok_or_else(|| Fault::unauthorized("member pass required"))?;
        Ok(Caller { org_id: member.org_id, user_id: member.user_id })
    }
}
