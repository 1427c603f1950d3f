use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, Semaphore};

use tessera::sql::Conn;

use crate::fx::RateFeed;
use crate::ledger::{LedgerError, Posting};

pub struct RateRefresher {
    feed: Arc<RateFeed>,
    refreshing: Mutex<()>,
    upstream: Semaphore,
}

impl RateRefresher {
    pub fn new(feed: Arc<RateFeed>) -> Self {
        Self { feed, refreshing: Mutex::new(()), upstream: Semaphore::new(4) }
    }

    /// Single-flight refresh: concurrent callers skip instead of piling up.
    pub async fn refresh(&self) -> Result<bool, String> {
        let Ok(_guard) = self.refreshing.try_lock() else {
            return Ok(false);
        };
        let permit = self.upstream.acquire().await.map_err(|e| e.to_string())?;
        let rates = self.feed.fetch(Duration::from_secs(5)).await.map_err(|e| e.to_string())?;
        drop(permit);
        self.feed.publish(rates).await.map_err(|e| e.to_string())?;
        Ok(true)
    }
}

pub async fn post_transfer(conn: &Conn, from: &str, to: &str, amount_minor: i64) -> Result<Posting, LedgerError> {
    let tx = conn.begin().await?;
    let balance: i64 = tx.query("SELECT balance FROM accounts WHERE id = $1 FOR UPDATE").bind(from).fetch_one().await?.get("balance");
    if balance < amount_minor {
        return Err(LedgerError::Insufficient { available: balance });
    }
    tx.query("UPDATE accounts SET balance = balance - $2 WHERE id = $1").bind(from).bind(amount_minor).execute().await?;
    tx.query("UPDATE accounts SET balance = balance + $2 WHERE id = $1").bind(to).bind(amount_minor).execute().await?;
    let posting: Posting = tx
        .query("INSERT INTO postings (debit, credit, amount_minor) VALUES ($1, $2, $3) RETURNING id, debit, credit, amount_minor")
        .bind(from)
        .bind(to)
        .bind(amount_minor)
        .fetch_one()
        .await?
        .into();
    tx.commit().await?;
    Ok(posting)
}
