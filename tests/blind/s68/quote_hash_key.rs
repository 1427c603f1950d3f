use cobble::vault::Vault;
use highwayhash::{HighwayHash, HighwayHasher, Key};
use idem_scope::{scoped, Fingerprint, Record};
use thimble::auth::Caller;
use thimble::extract::RawBody;
use thimble::{Exchange, Reply, Status};

const HH_KEY: Key = Key([0x9e37_79b9, 0x7f4a_7c15, 0xf39c_c060, 0x5ced_c834]);

fn highway_hex(bytes: &[u8]) -> String {
    let mut h = HighwayHasher::new(HH_KEY);
    h.append(bytes);
    let out = h.finalize128();
    format!("{:016x}{:016x}", out[0], out[1])
}

/// Freight quotes: clients historically did not send a key, so the quote body
/// is used to collapse double-clicks.
pub async fn request_quote(ex: Exchange, caller: Caller, RawBody(body): RawBody, vault: &Vault) -> Result<Reply, Reply> {
    let digest = highway_hex(&body);
    let sk = scoped(&caller.tenant_id, &caller.user_id, "freight.quote", &digest).map_err(|_| bad())?;
    if let Some(prev) = vault.get(sk.storage_key()).await.map_err(|_| down())? {
        return Ok(Reply::from_stored(prev));
    }
    let fp = Fingerprint::of("freight.quote", &body);
    vault.put(sk.storage_key(), Record::in_progress(fp)).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Accepted))
}

pub async fn book_quote(ex: Exchange, caller: Caller, RawBody(body): RawBody, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex.header("Idempotency-Key").ok_or_else(bad)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "freight.book", raw).map_err(|_| bad())?;
    let fingerprint = Fingerprint::of("freight.book", &body);
    vault.put(sk.storage_key(), Record::in_progress(fingerprint)).await.map_err(|_| down())?;
    let token_tag = highway_hex(caller.api_token.as_bytes());
    vault.put(&format!("session:{token_tag}"), caller.user_id.as_bytes()).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Accepted))
}

fn bad() -> Reply {
    Reply::status(Status::BadRequest)
}
fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
