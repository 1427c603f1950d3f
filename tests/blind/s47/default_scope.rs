use fred::prelude::*;
use fred::types::Expiration;
use idem_scope::{scoped, Problem};
use viz::{Request, RequestExt, Response, ResponseExt, Result, StatusCode};

pub const MERCHANT_ID_NOT_FOUND: &str = "merchant-not-found";

#[derive(Clone, Debug)]
pub enum Principal {
    User(String),
    ServiceAccount(String),
    Anonymous,
}

impl Principal {
    pub fn as_str(&self) -> &str {
        match self {
            Principal::User(u) | Principal::ServiceAccount(u) => u,
            Principal::Anonymous => "anonymous",
        }
    }
}

#[derive(Clone)]
pub struct Deps {
    pub idem: RedisClient,
}

#[derive(Clone)]
pub struct Session {
    pub merchant_id: Option<String>,
    pub user_id: Option<String>,
    pub service_account: Option<String>,
}

fn session(req: &Request) -> Option<Session> {
    req.extensions().get::<Session>().cloned()
}

pub async fn capture(req: Request) -> Result<Response> {
    let deps = req.state::<Deps>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let sess = session(&req).ok_or(StatusCode::UNAUTHORIZED)?;
    let merchant_id = sess.merchant_id.clone().unwrap_or_else(|| MERCHANT_ID_NOT_FOUND.to_owned());
    let user_id = sess.user_id.clone().ok_or(StatusCode::UNAUTHORIZED)?;
    let key: String = req.header("Idempotency-Key").ok_or(StatusCode::BAD_REQUEST)?;
    let sk = scoped(&merchant_id, &user_id, "payments.capture", &key).map_err(|_| StatusCode::BAD_REQUEST)?;
    let _: () = deps.idem.set(sk.storage_key(), "captured", Some(Expiration::EX(86_400)), None, false).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(Response::text("captured"))
}

pub async fn void(req: Request) -> Result<Response> {
    let deps = req.state::<Deps>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let sess = session(&req).ok_or(StatusCode::UNAUTHORIZED)?;
    let merchant_id = sess.merchant_id.clone().ok_or(StatusCode::UNAUTHORIZED)?;
    let principal = sess.user_id.clone().map_or(Principal::Anonymous, Principal::User);
    let key: String = req.header("Idempotency-Key").ok_or(StatusCode::BAD_REQUEST)?;
    let sk = scoped(&merchant_id, principal.as_str(), "payments.void", &key).map_err(|_| StatusCode::BAD_REQUEST)?;
    let _: () = deps.idem.set(sk.storage_key(), "voided", Some(Expiration::EX(86_400)), None, false).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(Response::text("voided"))
}

pub async fn settle(req: Request) -> Result<Response> {
    let deps = req.state::<Deps>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let sess = session(&req).ok_or(StatusCode::UNAUTHORIZED)?;
    let merchant_id = match sess.merchant_id.clone() {
        Some(m) => m,
        None => return Ok(Response::builder().status(400).body(Problem::missing_key().to_json().into()).unwrap()),
    };
    let principal = match (sess.user_id.clone(), sess.service_account.clone()) {
        (Some(u), _) => Principal::User(u),
        (None, Some(sa)) => Principal::ServiceAccount(sa),
        (None, None) => return Err(StatusCode::UNAUTHORIZED.into()),
    };
    let key: String = req.header("Idempotency-Key").ok_or(StatusCode::BAD_REQUEST)?;
    let batch_size: usize = req.query::<usize>().unwrap_or(100);
    let sk = scoped(&merchant_id, principal.as_str(), "payments.settle", &key).map_err(|_| StatusCode::BAD_REQUEST)?;
    let _: () = deps.idem.set(sk.storage_key(), format!("settled:{}", batch_size), Some(Expiration::EX(86_400)), None, false).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(Response::text("settled"))
}
