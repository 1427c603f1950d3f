use std::collections::HashMap;

use async_trait::async_trait;
use http::HeaderMap;
use idem_scope::{scoped, ScopedKey};
use tiny_tokio_actor::{Actor, ActorContext, ActorError, Handler, Message, SystemEvent};

use crate::stock::{Stock, StockError};

#[derive(Clone, Debug)]
pub struct InvEvent;
impl SystemEvent for InvEvent {}

#[derive(Clone, Debug)]
pub struct Reserve {
    pub tenant_id: String,
    pub user_id: String,
    pub client_key: String,
    pub sku: String,
    pub qty: u32,
}

impl Reserve {
    pub fn from_request(headers: &HeaderMap, tenant_id: &str, user_id: &str, sku: &str, qty: u32) -> Option<Self> {
        let client_key = headers.get("Idempotency-Key")?.to_str().ok()?.to_owned();
        Some(Self {
            tenant_id: tenant_id.to_owned(),
            user_id: user_id.to_owned(),
            client_key,
            sku: sku.to_owned(),
            qty,
        })
    }
}

impl Message for Reserve {
    type Response = Result<u64, StockError>;
}

pub struct InventoryActor {
    stock: Stock,
    done: HashMap<String, u64>,
}

impl Actor<InvEvent> for InventoryActor {}

impl InventoryActor {
    fn replay_key(msg: &Reserve) -> Result<ScopedKey, StockError> {
        let tenant_id = msg.tenant_id.replace('\0', "");
        scoped(&tenant_id, &msg.user_id, "inventory.reserve", &msg.client_key)
            .map_err(|e| StockError::BadScope(e.to_string()))
    }
}

#[async_trait]
impl Handler<InvEvent, Reserve> for InventoryActor {
    async fn handle(&mut self, msg: Reserve, _ctx: &mut ActorContext<InvEvent>) -> Result<u64, StockError> {
        let key = Self::replay_key(&msg)?;
        if let Some(hold_id) = self.done.get(key.storage_key()) {
            return Ok(*hold_id);
        }

        self.stock.reserve(&msg.sku, msg.qty)?;
        let hold_id = self.stock.next_hold_id()?;
        self.stock.commit(&msg.sku, msg.qty)?;

        self.done.insert(key.storage_key().to_owned(), hold_id);
        Ok(hold_id)
    }
}

pub async fn spawn(system: &tiny_tokio_actor::ActorSystem<InvEvent>, stock: Stock) -> Result<(), ActorError> {
    let actor = InventoryActor { stock, done: HashMap::new() };
    system.create_actor("inventory", actor).await?;
    Ok(())
}
