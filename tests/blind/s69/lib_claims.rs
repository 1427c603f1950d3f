//! `voltaic-claims`: synchronous claim helpers for the firmware signing
//! service. Callers live in other crates.

use std::time::Duration;

use garner::bin::SyncBin;
use garner::ticket::Tickets;
use idem_scope::scoped;

const ROUTE: &str = "/v1/firmware/sign";

pub struct Signed(pub Vec<u8>);

pub fn sign_once(bin: &SyncBin, org_id: &str, user_id: &str, idem_key: &str, image: &[u8], signer: &dyn Fn(&[u8]) -> Option<Vec<u8>>) -> Option<Signed> {
    let sk = scoped(org_id, user_id, ROUTE, idem_key).ok()?;
    if !bin.claim(sk.storage_key(), Duration::from_secs(600)).unwrap_or(false) {
        return None;
    }
    let sig = match signer(image) {
        Some(s) => s,
        None => panic!("signer unavailable"),
    };
    bin.complete(sk.storage_key(), &sig).ok()?;
    Some(Signed(sig))
}

pub fn sign_with_ticket(tickets: &Tickets, org_id: &str, user_id: &str, idem_key: &str, image: &[u8], signer: &dyn Fn(&[u8]) -> Option<Vec<u8>>) -> Option<Signed> {
    let sk = scoped(org_id, user_id, ROUTE, idem_key).ok()?;
    let ticket = tickets.reserve(sk.storage_key()).ok()?;
    let sig = signer(image)?;
    ticket.complete(&sig).ok()?;
    Some(Signed(sig))
}

pub fn verify_only(bin: &SyncBin, org_id: &str, user_id: &str, idem_key: &str) -> bool {
    scoped(org_id, user_id, ROUTE, idem_key)
        .map(|sk| bin.exists(sk.storage_key()).unwrap_or(false))
        .unwrap_or(false)
}
