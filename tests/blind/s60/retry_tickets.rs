use std::time::Duration;

use gimbal::{Ctx, Reply};
use idem_scope::{scoped, Namespace, ScopedKey};
use pyxis::keys::KeyFactory;
use pyxis::kv::Shelf;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::dunning::{Dunning, DunningError};

#[derive(Serialize, Deserialize)]
pub struct RetryTicket {
    pub tenant_id: String,
    pub user_id: String,
    pub invoice_id: String,
    pub replay_id: Uuid,
    pub attempt: u32,
}

pub struct Retries {
    shelf: Shelf,
    server_keys: KeyFactory,
    dunning: Dunning,
}

impl Retries {
    pub async fn pay_now(&self, ctx: Ctx, invoice_id: String) -> Result<Reply, DunningError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(DunningError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "invoices.pay", k)?;
        if let Some(prev) = self.shelf.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let paid = self.dunning.collect(&auth.tenant_id, &invoice_id).await?;
        self.shelf.put(key.storage_key(), &paid.to_json()).await?;
        let receipt_slot = format!("{}|receipt", key.storage_key());
        self.shelf.put(&receipt_slot, paid.receipt_url.as_bytes()).await?;
        Ok(Reply::ok(paid.to_json()))
    }

    pub fn schedule(&self, tenant_id: &str, user_id: &str, invoice_id: &str, attempt: u32) -> RetryTicket {
        RetryTicket {
            tenant_id: tenant_id.to_owned(),
            user_id: user_id.to_owned(),
            invoice_id: invoice_id.to_owned(),
            replay_id: Uuid::new_v4(),
            attempt,
        }
    }

    pub async fn retry_failed(&self, tenant_id: &str, user_id: &str, invoice_id: &str, attempt: u32) -> Result<(), DunningError> {
        let ticket = self.schedule(tenant_id, user_id, invoice_id, attempt);
        self.run_ticket(&ticket).await?;
        self.run_reminder(&ticket).await
    }

    pub async fn run_ticket(&self, ticket: &RetryTicket) -> Result<(), DunningError> {
        let key: ScopedKey = scoped(&ticket.tenant_id, &ticket.user_id, "invoices.pay", &ticket.replay_id.to_string())?;
        if self.shelf.get(key.storage_key()).await?.is_some() {
            return Ok(());
        }
        let paid = self.dunning.collect(&ticket.tenant_id, &ticket.invoice_id).await?;
        self.shelf
            .put_with_ttl(key.storage_key(), &paid.to_json(), Duration::from_secs(86_400))
            .await?;
        Ok(())
    }

    pub async fn run_reminder(&self, ticket: &RetryTicket) -> Result<(), DunningError> {
        let key = self.server_keys.build(
            Namespace::Server,
            &ticket.tenant_id,
            &ticket.user_id,
            "invoices.remind",
            &format!("{}-{}", ticket.replay_id, ticket.attempt),
        )?;
        if self.shelf.get(key.storage_key()).await?.is_some() {
            return Ok(());
        }
        self.dunning.remind(&ticket.tenant_id, &ticket.invoice_id).await?;
        self.shelf.put(key.storage_key(), b"sent").await?;
        Ok(())
    }
}
