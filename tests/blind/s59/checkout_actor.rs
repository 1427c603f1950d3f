use std::time::Duration;

use idem_scope::scoped;
use sluice::lease::LockTable;
use xactor::{message, Actor, Context, Handler};

use crate::inventory::Inventory;
use crate::orders::{OrderLine, OrderReceipt};

#[message(result = "anyhow::Result<OrderReceipt>")]
pub struct PlaceOrder {
    pub tenant_id: String,
    pub user_id: String,
    pub client_key: String,
    pub lines: Vec<OrderLine>,
}

#[message(result = "anyhow::Result<()>")]
pub struct SyncInventory;

pub struct CheckoutActor {
    locks: LockTable,
    job_locks: LockTable,
    inventory: Inventory,
}

impl Actor for CheckoutActor {}

#[async_trait::async_trait]
impl Handler<PlaceOrder> for CheckoutActor {
    async fn handle(&mut self, _ctx: &mut Context<Self>, msg: PlaceOrder) -> anyhow::Result<OrderReceipt> {
        let sk = scoped(&msg.tenant_id, &msg.user_id, "checkout.place", &msg.client_key)?;
        if let Some(prev) = self.locks.completed::<OrderReceipt>(sk.storage_key()).await? {
            return Ok(prev);
        }
        self.locks.acquire(sk.storage_key(), Duration::from_secs(60)).await?;
        let receipt = {
            let mut held = Vec::with_capacity(msg.lines.len());
            for line in &msg.lines {
                let hold = self.inventory.hold(&msg.tenant_id, &line.sku, line.qty).await?;
                held.push(hold);
            }
            let order_ref = scru128::new_string();
            OrderReceipt::new(&msg.tenant_id, &order_ref, held)
        };
        self.locks.complete(sk.storage_key(), &receipt).await?;
        Ok(receipt)
    }
}

#[async_trait::async_trait]
impl Handler<SyncInventory> for CheckoutActor {
    async fn handle(&mut self, _ctx: &mut Context<Self>, _msg: SyncInventory) -> anyhow::Result<()> {
        self.job_locks.acquire("jobs/inventory-sync", Duration::from_secs(900)).await?;
        let changed = self.inventory.pull_supplier_feed().await?;
        self.inventory.apply(changed).await?;
        self.job_locks.complete("jobs/inventory-sync", &()).await?;
        Ok(())
    }
}
