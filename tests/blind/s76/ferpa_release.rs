//! FERPA release authorisations: a student authorises a parent or sponsor to
//! see grades or billing. The tenant arrives from the SSO assertion, where
//! one identity provider wraps the campus code in record separators.

use idem_scope::{scoped, Problem, ScopeError};
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::records::Releases;

#[derive(Deserialize)]
pub struct ReleaseIn {
    pub grantee_email: String,
    pub scopes: Vec<String>,
    pub display_name: String,
}

pub struct Ferpa {
    pub pouch: Pouch,
    pub releases: Releases,
}

pub async fn authorise(ask: &Ask, f: &Ferpa) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let tenant_id = card.sso_tenant.replace('\u{1e}', "");

    let sk = scoped(&tenant_id, &card.user_id, "/v1/ferpa/releases", key)?;
    if let Some(done) = f.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: ReleaseIn = ask.json()?;
    let shown = input.display_name.replace('|', " ");
    let grant = f.releases.grant(&tenant_id, &card.user_id, &input.grantee_email, &input.scopes, &shown).await?;
    let body = serde_json::to_vec(&grant)?;
    f.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn revoke(ask: &Ask, f: &Ferpa) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    if key.contains('\u{1e}') || key.contains('\0') {
        return Ok(Tell::problem(Problem::invalid_key("separator characters are not allowed")));
    }
    let sk = match scoped(&card.tenant_id, &card.user_id, "/v1/ferpa/releases/revoke", key) {
        Ok(sk) => sk,
        Err(ScopeError::ContainsSeparator(_)) => return Ok(Tell::problem(Problem::invalid_key("separator"))),
        Err(e) => return Err(Hitch::from(e)),
    };
    if let Some(done) = f.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let grant_id = ask.param("grant").ok_or(Hitch::bad_request("grant"))?;
    let revoked = f.releases.revoke(&card.tenant_id, &card.user_id, grant_id).await?;
    let body = serde_json::to_vec(&revoked)?;
    f.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
