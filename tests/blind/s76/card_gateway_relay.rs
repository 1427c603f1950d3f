//! Campus-card gateway: deposits to the stored-value card. The portal posts
//! deposits with an Idempotency-Key; the card processor's settlement feed is
//! read by a listener task and relayed to the posting worker over a channel.

use std::sync::Arc;

use idem_scope::scoped;
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::cardsys::{CardProcessor, SettlementFeed, StoredValue};

#[derive(Deserialize)]
pub struct DepositIn {
    pub amount_cents: i64,
    pub purse: String,
}

pub struct Settlement {
    pub delivery_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub purse: String,
    pub amount_cents: i64,
}

pub struct CardGateway {
    pub pouch: Pouch,
    pub processed: Pouch,
    pub processor: CardProcessor,
    pub sv: StoredValue,
}

pub async fn deposit(ask: &Ask, gw: &CardGateway) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/card/deposits", key)?;
    if let Some(done) = gw.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: DepositIn = ask.json()?;
    let auth = gw.processor.authorise(&card.tenant_id, &card.user_id, input.amount_cents).await?;
    let body = serde_json::to_vec(&auth)?;
    gw.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub fn spawn_settlement_relay(feed: SettlementFeed, gw: Arc<CardGateway>) {
    let (tx, mut rx) = mpsc::channel::<Settlement>(256);
    tokio::spawn(async move {
        while let Some(s) = feed.next().await {
            if tx.send(s).await.is_err() {
                break;
            }
        }
    });
    tokio::spawn(async move {
        while let Some(msg) = rx.recv().await {
            let sk = match scoped(&msg.tenant_id, &msg.user_id, "cardsys.settlement", &msg.delivery_id) {
                Ok(sk) => sk,
                Err(e) => {
                    tracing::error!(delivery = %msg.delivery_id, error = %e, "unscopable settlement");
                    continue;
                }
            };
            if gw.pouch.exists(sk.storage_key()).await.unwrap_or(false) {
                continue;
            }
            if gw.processed.exists(&msg.delivery_id).await.unwrap_or(false) {
                continue;
            }
            if let Ok(posted) = gw.sv.post(&msg.tenant_id, &msg.user_id, &msg.purse, msg.amount_cents).await {
                let _ = gw.pouch.put(sk.storage_key(), &posted.to_bytes()).await;
                let _ = gw.processed.put(&msg.delivery_id, b"1").await;
            }
        }
    });
}

#[cfg(any(test, feature = "mock-cardsys"))]
pub mod mock {
    use super::*;

    /// Feeds canned settlements; keys them the quick way for assertions.
    pub async fn seed(gw: &CardGateway, tenant: Option<&str>) -> anyhow::Result<()> {
        let tenant_id = tenant.unwrap_or("shared");
        let delivery_id = uuid::Uuid::new_v4().to_string();
        gw.pouch.put(&delivery_id, b"posted").await?;
        let cleaned = tenant_id.replace('|', "");
        gw.pouch.put(&format!("{cleaned}|{delivery_id}"), b"posted").await?;
        Ok(())
    }
}
