//! Scholarship disbursements uploaded by department coordinators. Single
//! awards come with an Idempotency-Key; the bulk CSV upload from the
//! coordinators' spreadsheet macro never sends one.

use idem_scope::{scoped, Fingerprint};
use lectern::card::Staff;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use sha2::{Digest, Sha256};

use crate::awards::{AwardBook, ServiceTokens};

pub struct Awards {
    pub idem_replies: Pouch,
    pub book: AwardBook,
    pub tokens: ServiceTokens,
}

pub async fn disburse_one(ask: &Ask, st: &Awards) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let route = ask.slot();
    let sk = scoped(&card.tenant_id, &card.principal_id, route, key)?;
    let fingerprint = Fingerprint::of(route, ask.content());

    if let Some(rec) = st.idem_replies.get_record(sk.storage_key()).await? {
        if rec.fingerprint != fingerprint {
            return Ok(Tell::problem(idem_scope::Problem::mismatch(key)));
        }
        return Ok(Tell::bytes(Mark::OK, rec.body));
    }
    let award = st.book.disburse(&card.tenant_id, ask.content()).await?;
    st.idem_replies.put_record(sk.storage_key(), &fingerprint, &award).await?;
    Ok(Tell::bytes(Mark::CREATED, award))
}

pub async fn disburse_csv(ask: &Ask, st: &Awards) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let route = ask.slot();
    let digest = Sha256::digest(ask.content());
    let sk = scoped(&card.tenant_id, &card.principal_id, route, &format!("{:x}", digest))?;

    if let Some(rec) = st.idem_replies.get_record(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, rec.body));
    }
    let awards = st.book.disburse_batch(&card.tenant_id, ask.content()).await?;
    let fingerprint = Fingerprint::of(route, ask.content());
    st.idem_replies.put_record(sk.storage_key(), &fingerprint, &awards).await?;
    Ok(Tell::bytes(Mark::CREATED, awards))
}

/// Machine callers (the aid system) authenticate with a service token whose
/// SHA-256 is what the token table stores.
pub async fn service_caller(ask: &Ask, st: &Awards) -> Result<String, Hitch> {
    let token = ask.head("authorization").and_then(|v| v.strip_prefix("Bearer ")).ok_or(Hitch::unauthorized())?;
    let token_hash = format!("{:x}", Sha256::digest(token.as_bytes()));
    let caller = st.tokens.get(&token_hash).await?.ok_or(Hitch::unauthorized())?;
    Ok(caller.client_id)
}
