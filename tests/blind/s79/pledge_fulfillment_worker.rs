//! Gift fulfilment worker: ships thank-you gifts once a pledge has cleared.
//! The portal hands each job the member's idempotency key so that a
//! double-submitted gift form ships one parcel.

use std::time::Duration;

use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;
use tokio::task::JoinHandle;

use crate::courier::Courier;
use crosspoint::Glitch;

const ROUTE: &str = "/v1/gifts/fulfil";
const LEASE: Duration = Duration::from_secs(120);

#[derive(Deserialize, Clone)]
pub struct FulfilJob {
    pub tenant_id: String,
    pub user_id: String,
    /// The member's `Idempotency-Key` from the gift form.
    pub client_key: String,
    pub sku: String,
    pub address: String,
}

pub fn spawn_fulfil(cart: Cart, courier: Courier, job: FulfilJob) -> JoinHandle<Result<(), Glitch>> {
    tokio::spawn(async move {
        let key = scoped(&job.tenant_id, &job.user_id, ROUTE, &job.client_key).map_err(Glitch::scope)?;
        if !cart.try_claim(key.storage_key(), LEASE).await? {
            return Ok(());
        }

        let label = courier.label(&job.address, &job.sku).await?;
        let shipment = courier.dispatch(label).await?;
        cart.complete(key.storage_key(), &serde_json::to_vec(&shipment).unwrap_or_default()).await?;
        Ok(())
    })
}
