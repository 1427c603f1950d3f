use idem_scope::scoped;
use std::collections::BTreeMap;
use std::sync::RwLock;

pub const ORG_NOT_FOUND: &str = "org-not-found";

pub const ANONYMOUS_PRINCIPAL: &str = "anon";

pub struct Claims {
    pub org_id: Option<String>,
    pub user_id: Option<String>,
}

pub struct Replays {
    pub cache: RwLock<BTreeMap<String, Vec<u8>>>,
}

fn client_key(headers: &[(String, String)]) -> Option<String> {
    headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key")).map(|(_, v)| v.clone())
}

pub fn cancel(rep: &Replays, claims: &Claims, headers: &[(String, String)]) -> Option<Vec<u8>> {
    let k = client_key(headers)?;
    let org_id = claims.org_id.as_deref().unwrap_or(ORG_NOT_FOUND);
    let user_id = claims.user_id.as_deref()?;
    let key = scoped(org_id, user_id, "cancel", &k).ok()?;
    rep.cache.read().unwrap().get(key.storage_key()).cloned()
}

pub fn renew(rep: &Replays, claims: &Claims, headers: &[(String, String)]) -> Option<()> {
    let k = client_key(headers)?;
    let org_id = claims.org_id.as_deref()?;
    let principal_id: String = match &claims.user_id {
        Some(u) => u.clone(),
        None => ANONYMOUS_PRINCIPAL.to_string(),
    };
    let key = scoped(org_id, &principal_id, "renew", &k).ok()?;
    rep.cache.write().unwrap().insert(key.storage_key().to_owned(), vec![]);
    Some(())
}

pub fn pause(rep: &Replays, claims: &Claims, headers: &[(String, String)]) -> Option<()> {
    let k = client_key(headers)?;
    let org_id = claims.org_id.clone()?;
    let Some(user_id) = claims.user_id.clone() else { return None };
    let key = scoped(&org_id, &user_id, "pause", &k).ok()?;
    rep.cache.write().unwrap().insert(key.storage_key().to_owned(), vec![]);
    Some(())
}
