use std::sync::Arc;

use anyhow::{bail, ensure, Context as _};
use idem_scope::scoped;
use quarry::hold::Holds;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct BookSeats {
    show_id: String,
    seats: Vec<String>,
    promo: Option<String>,
}

pub struct BoxOffice {
    holds: Arc<Holds>,
    inventory: venue::Inventory,
    max_seats: usize,
}

impl BoxOffice {
    pub async fn book(&self, ctx: &Ctx, caller: &Caller, Json(req): Json<BookSeats>) -> anyhow::Result<Reply> {
        let key = ctx.header("Idempotency-Key").context("Idempotency-Key header is required")?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "seats.book", key)?;
        if !self.holds.reserve(sk.storage_key()).await? {
            bail!("booking with key {} is still in progress", key);
        }
        ensure!(req.seats.len() <= self.max_seats, "at most {} seats per booking", self.max_seats);

        let hold = self.inventory.reserve(&req.show_id, &req.seats).await?;
        let booking = self.inventory.confirm(hold, req.promo.as_deref()).await?;
        self.holds.commit(sk.storage_key(), booking.to_bytes()).await?;
        Ok(Reply::bytes(Status::CREATED, booking.to_bytes()))
    }

    pub async fn release_expired(&self) -> anyhow::Result<u32> {
        let mut freed = 0;
        for hold in self.inventory.expired_holds().await? {
            self.inventory.release(hold).await?;
            freed += 1;
        }
        Ok(freed)
    }
}
