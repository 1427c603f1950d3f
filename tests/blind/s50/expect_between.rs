//! Account top-ups; records are speedy-encoded and kept in a QuestDB-adjacent KV.
use http::HeaderMap;
use idem_scope::scoped;
use speedy::{Readable, Writable};

#[derive(Readable, Writable)]
pub struct TopUp {
    pub account_id: String,
    pub cents: u64,
}

pub trait Journal {
    fn begin(&mut self, key: &str) -> Result<bool, String>;
    fn commit(&mut self, key: &str, response: &[u8]) -> Result<(), String>;
    fn rollback(&mut self, key: &str);
}

pub trait Db {
    type Tx<'a>: Tx where Self: 'a;
    fn begin(&mut self) -> Result<Self::Tx<'_>, String>;
}
pub trait Tx {
    fn execute(&mut self, sql: &str) -> Result<u64, String>;
    fn commit(self) -> Result<(), String>;
}

pub fn top_up<J: Journal, D: Db>(journal: &mut J, db: &mut D, h: &HeaderMap, user_id: &str, body: &[u8]) -> Result<Vec<u8>, String> {
    let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
    let req = TopUp::read_from_buffer(body).map_err(|e| e.to_string())?;
    let key = scoped(&req.account_id, user_id, "wallet.topup", k).map_err(|e| e.to_string())?;
    if !journal.begin(key.storage_key())? {
        return Err("409".into());
    }
    let mut tx = db.begin()?;
    tx.execute(&format!("UPDATE wallets SET cents = cents + {} WHERE account = '{}'", req.cents, req.account_id))?;
    tx.commit()?;
    let resp = req.write_to_vec().expect("speedy encoding of a plain struct");
    journal.commit(key.storage_key(), &resp)?;
    Ok(resp)
}

pub fn monthly_fee<D: Db>(db: &mut D, account_id: &str) -> Result<(), String> {
    let mut tx = db.begin()?;
    tx.execute(&format!("UPDATE wallets SET cents = cents - 100 WHERE account = '{account_id}'"))?;
    tx.execute(&format!("INSERT INTO fees (account) VALUES ('{account_id}')"))?;
    tx.commit()
}
