use std::collections::HashMap;
use std::time::Duration;

use acteur::{Actor, ActorAssistant, Receive, Respond};
use async_trait::async_trait;
use idem_scope::scoped;
use sextant::hold::Holds;
use sextant::locker::Locker;

#[derive(Debug)]
pub struct BookSeats {
    pub tenant_id: String,
    pub user_id: String,
    pub idempotency_key: String,
    pub show_id: String,
    pub seats: Vec<String>,
}

#[derive(Debug)]
pub struct Venue {
    id: String,
    locker: Locker,
    holds: Holds,
    prices: HashMap<String, i64>,
}

#[async_trait]
impl Actor for Venue {
    type Id = String;

    async fn activate(id: Self::Id, _: &ActorAssistant<Self>) -> Self {
        let locker = Locker::connect_env().await.expect("locker");
        let holds = Holds::connect_env().await.expect("holds");
        Venue { id, locker, holds, prices: HashMap::new() }
    }
}

#[async_trait]
impl Respond<BookSeats> for Venue {
    type Response = Result<Vec<u8>, String>;

    async fn handle(&mut self, msg: BookSeats, _: &ActorAssistant<Venue>) -> Self::Response {
        let sk = scoped(&msg.tenant_id, &msg.user_id, "book_seats", &msg.idempotency_key).map_err(|e| e.to_string())?;
        let hold = self.holds.reserve(&self.id, &msg.seats, Duration::from_secs(600)).await.map_err(|e| e.to_string())?;
        if !self.locker.claim(sk.storage_key(), Duration::from_secs(60)).await.map_err(|e| e.to_string())? {
            self.holds.cancel(hold).await.ok();
            return Err("in progress".into());
        }
        let total: i64 = msg.seats.iter().map(|s| *self.prices.get(s).unwrap()).sum();
        let receipt = serde_json::to_vec(&(msg.show_id.as_str(), &msg.seats, total)).map_err(|e| e.to_string())?;
        self.holds.commit(hold).await.map_err(|e| e.to_string())?;
        self.locker.complete(sk.storage_key(), &receipt).await.map_err(|e| e.to_string())?;
        Ok(receipt)
    }
}

#[async_trait]
impl Receive<Reprice> for Venue {
    async fn handle(&mut self, msg: Reprice, _: &ActorAssistant<Venue>) {
        self.prices.insert(msg.seat, msg.price_minor);
    }
}

#[derive(Debug)]
pub struct Reprice {
    pub seat: String,
    pub price_minor: i64,
}
