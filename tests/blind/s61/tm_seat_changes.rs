use std::time::Duration;

use futures::TryFutureExt;
use idem_scope::{scoped, Problem};
use larder::pantry::Pantry;
use serde::Deserialize;
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

#[derive(Deserialize)]
struct SeatChange {
    seats: u32,
}

pub struct Seats {
    pantry: Pantry,
}

impl Seats {
    /// PATCH /v1/subscription/seats
    pub async fn change_seats(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let k = req.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let key = scoped(&caller.tenant_id, &caller.user_id, "seats.change", k)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        let sk = key.storage_key();

        self.pantry.claim(sk, Duration::from_secs(60)).await.map_err(Reply::internal)?;
        let change: SeatChange = match req.json() {
            Ok(c) => c,
            Err(bad) => {
                let _ = self.pantry.release(sk).await;
                return Err(bad);
            }
        };
        let invoice = prorate(&caller.tenant_id, change.seats)
            .or_else(|e| async {
                let _ = self.pantry.release(sk).await;
                Err(Reply::internal(e))
            })
            .await?;
        self.pantry.complete(sk, invoice.as_bytes()).await.map_err(Reply::internal)?;
        Ok(Reply::raw(200, invoice.into_bytes()))
    }

    /// POST /v1/subscription/seats/preview (dry run, still deduplicated for the UI).
    pub async fn preview(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let k = req.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let key = scoped(&caller.tenant_id, &caller.user_id, "seats.preview", k)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

        self.pantry.claim(key.storage_key(), Duration::from_secs(30)).await.map_err(Reply::internal)?;
        let outcome = async {
            let change: SeatChange = req.json()?;
            let quote = prorate(&caller.tenant_id, change.seats).await.map_err(Reply::internal)?;
            Ok::<_, Reply>(quote)
        }
        .await;
        match outcome {
            Ok(quote) => {
                self.pantry.complete(key.storage_key(), quote.as_bytes()).await.map_err(Reply::internal)?;
                Ok(Reply::raw(200, quote.into_bytes()))
            }
            Err(reply) => {
                let _ = self.pantry.release(key.storage_key()).await;
                Err(reply)
            }
        }
    }
}

async fn prorate(tenant_id: &str, seats: u32) -> anyhow::Result<String> {
    anyhow::ensure!(seats > 0 && seats <= 10_000, "seat count out of range");
    Ok(format!("{{\"tenant\":\"{tenant_id}\",\"seats\":{seats},\"due_minor\":{}}}", seats * 900))
}
