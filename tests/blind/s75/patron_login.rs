//! Patron sign-in: e-mail and password, then an opaque session token. The
//! password hashes were migrated from the old Django box office; the session
//! token is stored only as a digest in the session batten.
use std::time::Duration;

use loft::batten::Batten;
use proscenium::draw::JsonPart;
use proscenium::{Curtain, Flub, House};
use serde::Deserialize;
use sha2::{Digest, Sha256};

const SESSION_TTL: Duration = Duration::from_secs(14 * 86_400);

#[derive(Deserialize)]
pub struct Login {
    pub email: String,
    pub password: String,
    pub remember_me: Option<bool>,
}

pub struct Accounts {
    pub sessions: Batten,
    pub patrons: crate::patrons::Directory,
}

pub async fn sign_in(JsonPart(login): JsonPart<Login>, house: House<Accounts>) -> Result<Curtain, Flub> {
    let email = login.email.trim().to_lowercase();
    let Some(patron) = house.patrons.by_email(&email).await? else {
        return Ok(Curtain::new(401));
    };
    if !djangohashers::check_password(&login.password, &patron.password_hash).map_err(Flub::internal)? {
        return Ok(Curtain::new(401));
    }
    let remember = login.remember_me.unwrap_or_default();
    let token = crate::tokens::random_token();
    let token_digest = Sha256::digest(token.as_bytes());
    let session_key = format!("session:{:x}", token_digest);
    let ttl = if remember { SESSION_TTL } else { Duration::from_secs(12 * 3600) };
    house.sessions.put(&session_key, patron.user_id.as_bytes().to_vec(), ttl).await?;
    Ok(Curtain::json(200, &serde_json::json!({ "token": token })))
}
