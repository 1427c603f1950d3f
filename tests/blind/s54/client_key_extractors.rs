use gatehouse::extract::{FromRequest, RequestHead};
use gatehouse::http::{Response, State, StatusCode};
use gatehouse::{Credential, Rejection};
use ledgerkit::idem::ReplayStore;

/// The raw `Idempotency-Key` header value.
pub struct ClientKey(pub String);

impl FromRequest for ClientKey {
    type Rejection = Rejection;

    async fn from_request(head: &mut RequestHead) -> Result<Self, Self::Rejection> {
        head.headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(|s| ClientKey(s.to_owned()))
            .ok_or(Rejection::bad_request("Idempotency-Key header required"))
    }
}

/// Credential + route + client key, built once per request.
pub struct RequestKey {
    encoded: String,
}

impl RequestKey {
    pub fn new(cred: &Credential, route: &str, client_key: &str) -> Result<Self, Rejection> {
        let sk = idem_scope::scoped(&cred.tenant_id, &cred.principal_id, route, client_key)
            .map_err(|e| Rejection::bad_request(&e.to_string()))?;
        Ok(Self { encoded: sk.storage_key().to_owned() })
    }

    pub fn as_str(&self) -> &str {
        &self.encoded
    }
}

impl FromRequest for RequestKey {
    type Rejection = Rejection;

    async fn from_request(head: &mut RequestHead) -> Result<Self, Self::Rejection> {
        let cred = head.extensions.get::<Credential>().cloned().ok_or(Rejection::unauthorized())?;
        let ClientKey(raw) = ClientKey::from_request(head).await?;
        let route = head.matched_route.clone().ok_or(Rejection::not_found())?;
        RequestKey::new(&cred, &route, &raw)
    }
}

pub async fn archive_project(
    State(replay): State<ReplayStore>,
    ClientKey(key): ClientKey,
    cred: Credential,
) -> Result<Response, Rejection> {
    if let Some(prev) = replay.lookup(&key).await? {
        return Ok(Response::bytes(StatusCode::OK, prev));
    }
    let body = projects::archive(&cred.tenant_id).await?;
    replay.save(&key, &body).await?;
    Ok(Response::bytes(StatusCode::ACCEPTED, body))
}

pub async fn restore_project(
    State(replay): State<ReplayStore>,
    idempotency_key: RequestKey,
    cred: Credential,
) -> Result<Response, Rejection> {
    if let Some(prev) = replay.lookup(idempotency_key.as_str()).await? {
        return Ok(Response::bytes(StatusCode::OK, prev));
    }
    let body = projects::restore(&cred.tenant_id).await?;
    replay.save(idempotency_key.as_str(), &body).await?;
    Ok(Response::bytes(StatusCode::OK, body))
}
