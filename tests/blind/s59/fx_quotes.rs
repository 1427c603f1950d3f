use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use brindle::{Ctx, Reply, Status};
use idem_scope::Problem;
use serde::Serialize;

use crate::rates::{RateFeed, Pair};

pub const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";
const MAX_KEY_LEN: usize = 255;

#[derive(Clone, Serialize)]
pub struct Quote {
    pub pair: String,
    pub rate: String,
    pub expires_in_ms: u64,
    #[serde(skip)]
    pub minted_at: Instant,
}

pub struct QuoteDesk {
    quotes: Mutex<BTreeMap<String, Quote>>,
    feed: RateFeed,
    validity: Duration,
}

impl QuoteDesk {
    pub fn new(feed: RateFeed) -> Self {
        Self { quotes: Mutex::new(BTreeMap::new()), feed, validity: Duration::from_secs(30) }
    }

    pub async fn quote(&self, ctx: Ctx) -> Reply {
        let Some(key) = ctx.header(IDEMPOTENCY_HEADER) else {
            return Reply::problem(Problem::missing_key());
        };
        if key.len() > MAX_KEY_LEN {
            return Reply::problem(Problem::invalid_key(&format!("key {key} is longer than {MAX_KEY_LEN} bytes")));
        }
        let pair: Pair = match ctx.query("pair").and_then(|p| p.parse().ok()) {
            Some(p) => p,
            None => return Reply::status(Status::BAD_REQUEST),
        };
        let mid = self.feed.mid(&pair).await;

        let mut quotes = self.quotes.lock().expect("quote map poisoned");
        quotes.retain(|_, q| q.minted_at.elapsed() < self.validity);
        let quote = quotes
            .entry(key.to_owned())
            .or_insert_with(|| Quote {
                pair: pair.to_string(),
                rate: mid.with_spread(15).to_string(),
                expires_in_ms: self.validity.as_millis() as u64,
                minted_at: Instant::now(),
            })
            .clone();
        drop(quotes);

        Reply::json(Status::OK, &quote)
    }
}
