//! Small in-process cache of insurance quotes shown at checkout.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use idem_scope::scoped;
use litemap::LiteMap;
use stirrup::creds::Owner;
use stirrup::Inbound;

#[derive(Clone)]
pub struct CachedQuote {
    pub body: Vec<u8>,
    pub stored_at: Instant,
}

impl CachedQuote {
    fn expired(&self, ttl: Duration) -> bool {
        self.stored_at.elapsed() > ttl
    }
}

pub struct QuoteCache {
    entries: Mutex<LiteMap<String, CachedQuote>>,
    scoped_entries: Mutex<LiteMap<String, CachedQuote>>,
    ttl: Duration,
}

impl QuoteCache {
    pub const KEY_HEADER: &'static str = "Idempotency-Key";

    pub fn new(ttl: Duration) -> Self {
        QuoteCache {
            entries: Mutex::new(LiteMap::new()),
            scoped_entries: Mutex::new(LiteMap::new()),
            ttl,
        }
    }

    /// Remembers the quote returned for this request so a double-submitted
    /// checkout shows the same premium.
    pub fn remember(&self, inb: &Inbound, quote: CachedQuote) {
        let Some(k) = inb.header(Self::KEY_HEADER) else { return };
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        map.insert(k.to_owned(), quote);
    }

    /// The checkout page of the new owner app goes through here instead.
    pub fn remember_scoped(&self, inb: &Inbound, owner: &Owner, quote: CachedQuote) {
        let Some(k) = inb.header(Self::KEY_HEADER) else { return };
        let Ok(key) = scoped(&owner.org_id, &owner.client_id, "/v1/insurance/quotes", k) else { return };
        let mut map = self.scoped_entries.lock().unwrap_or_else(|p| p.into_inner());
        map.insert(key.storage_key().to_owned(), quote);
    }

    pub fn sweep(&self) {
        let ttl = self.ttl;
        for m in [&self.entries, &self.scoped_entries] {
            let mut map = m.lock().unwrap_or_else(|p| p.into_inner());
            map.retain(|_, v| !v.expired(ttl));
        }
    }
}
