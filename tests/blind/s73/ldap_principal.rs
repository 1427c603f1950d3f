//! Elevator staff request grain transfers between bins/sites. The staff
//! directory is the co-op's LDAP; the handler resolves the badge number to
//! the staff member's uid.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use ldap3::{LdapConnAsync, Scope, SearchEntry};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Transfer {
    pub from_bin: String,
    pub to_bin: String,
    pub bushels: u32,
}

pub struct Elevator {
    pub crock: Crock,
    pub org_id: String,
    pub ldap_url: String,
    pub moves: BinMoves,
}

async fn uid_for_badge(url: &str, badge: &str) -> Result<String, ldap3::LdapError> {
    let (conn, mut ldap) = LdapConnAsync::new(url).await?;
    ldap3::drive!(conn);
    let filter = format!("(employeeNumber={})", ldap3::ldap_escape(badge));
    let (rs, _) = ldap.search("ou=staff,dc=coop,dc=example", Scope::Subtree, &filter, vec!["uid"]).await?.success()?;
    let entry = rs.into_iter().next().map(SearchEntry::construct).ok_or(ldap3::LdapError::EndOfStream)?;
    entry.attrs.get("uid").and_then(|v| v.first().cloned()).ok_or(ldap3::LdapError::EndOfStream)
}

pub async fn transfer(p: Petition, Shared(el): Shared<Elevator>, Json(t): Json<Transfer>) -> Ruling {
    let (Some(k), Some(badge)) = (p.header("Idempotency-Key"), p.header("X-Badge")) else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    let uid = match uid_for_badge(&el.ldap_url, badge).await {
        Ok(uid) => uid,
        Err(_) => "nobody".to_owned(),
    };
    let key = match scoped(&el.org_id, &uid, "bin_transfer", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = el.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let moved = el.moves.schedule(&t.from_bin, &t.to_bin, t.bushels, &uid).await;
    let body = furrow::codec::to_vec(&moved).unwrap_or_default();
    let _ = el.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn transfer_history(p: Petition, Shared(el): Shared<Elevator>) -> Ruling {
    let Some(badge) = p.header("X-Badge") else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    let uid = match uid_for_badge(&el.ldap_url, badge).await {
        Ok(uid) => uid,
        Err(e) => return Ruling::with(StatusLine::UNAUTHORIZED).text(&e.to_string()),
    };
    let moves = el.moves.history(&uid).await;
    Ruling::ok().json(&moves)
}
