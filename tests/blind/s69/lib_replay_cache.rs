//! `voltaic-replay`: response cache helpers for embedded chargers' local
//! API. Callers live in the firmware bridge crate.

use std::time::Duration;

use garner::bin::SyncBin;
use idem_scope::{scoped, Fingerprint};

pub struct Cached {
    pub status: u16,
    pub body: Vec<u8>,
}

pub fn lookup(bin: &SyncBin, idem_key: &str) -> Option<Cached> {
    let raw = bin.get(idem_key).ok()??;
    let (status, body) = raw.split_at(2);
    Some(Cached { status: u16::from_be_bytes([status[0], status[1]]), body: body.to_vec() })
}

pub fn store(bin: &SyncBin, org_id: &str, user_id: &str, route: &str, idem_key: &str, c: &Cached) {
    let Ok(sk) = scoped(org_id, user_id, route, idem_key) else { return };
    let mut v = c.status.to_be_bytes().to_vec();
    v.extend_from_slice(&c.body);
    let _ = bin.put_ttl(sk.storage_key(), &v, Duration::from_secs(86_400));
}

pub fn fingerprint_of(route: &str, body: &[u8]) -> Fingerprint {
    Fingerprint::of(route, body)
}
