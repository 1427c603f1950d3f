use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{LazyLock, RwLock};
use xxhash_rust::xxh3::xxh3_64;

static RESPONSES: LazyLock<RwLock<BTreeMap<String, Vec<u8>>>> = LazyLock::new(|| RwLock::new(BTreeMap::new()));

#[derive(Hash, serde::Deserialize)]
pub struct TopUp {
    pub account_id: String,
    pub amount: u64,
}

pub struct Identity {
    pub account_id: String,
    pub user_id: String,
    pub api_token: String,
}

pub fn topup(ident: &Identity, raw: &[u8]) -> Vec<u8> {
    let cmd: TopUp = serde_json::from_slice(raw).expect("valid body");
    let mut h = DefaultHasher::new();
    cmd.hash(&mut h);
    let replay_key = idem_scope::scoped(&ident.account_id, &ident.user_id, "topup", &h.finish().to_string()).unwrap();
    let mut map = RESPONSES.write().unwrap();
    map.entry(replay_key.storage_key().to_owned()).or_default().clone()
}

pub fn withdraw(ident: &Identity, raw: &[u8]) -> Vec<u8> {
    let key = format!("{}|{}|withdraw|{:016x}", ident.account_id, ident.user_id, xxh3_64(raw));
    RESPONSES.write().unwrap().entry(key).or_default().clone()
}

pub fn token_bucket(ident: &Identity, headers: &[(String, String)]) -> Option<Vec<u8>> {
    let k = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key"))?.1.as_str();
    let token_digest = format!("{:016x}", xxh3_64(ident.api_token.as_bytes()));
    let key = idem_scope::scoped(&ident.account_id, &token_digest, "balance", k).ok()?;
    RESPONSES.read().unwrap().get(key.storage_key()).cloned()
}
