//! Ticket and experience refunds requested from the guest portal, plus the
//! nightly refund settlement batch.

use std::time::Duration;

use enclosure::extract::Shared;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::lease::Leases;
use lagoon::tank::Tank;

use crate::extractors::Caller;

const LEASE: Duration = Duration::from_secs(60);

pub struct RefundDesk {
    pub replays: Tank,
    pub leases: Leases,
    pub orders: crate::orders::Orders,
    pub processor: crate::payments::Processor,
}

pub async fn refund(visit: Visit, Shared(desk): Shared<RefundDesk>, caller: Caller) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let order_id = visit.param("order").ok_or_else(|| Fault::not_found("order"))?;
    let slot = scoped(&caller.org_id, &caller.user_id, "orders.refund", key).map_err(Fault::bad_request)?;

    let outcome: Result<Vec<u8>, Fault> = 'work: {
        if !desk.replays.acquire(slot.storage_key(), LEASE).await? {
            break 'work Err(Fault::conflict("refund already in progress"));
        }
        let order = match desk.orders.find(&caller.org_id, order_id).await {
            Ok(Some(order)) => order,
            Ok(None) => break 'work Err(Fault::not_found("order")),
            Err(e) => {
                let _ = desk.replays.release(slot.storage_key()).await;
                break 'work Err(e.into());
            }
        };
        if order.refunded_at.is_some() {
            break 'work Err(Fault::conflict("order already refunded"));
        }
        match desk.processor.refund(&order).await {
            Ok(receipt) => {
                let body = receipt.to_bytes();
                if let Err(e) = desk.replays.complete(slot.storage_key(), &body).await {
                    break 'work Err(e.into());
                }
                Ok(body)
            }
            Err(e) => {
                let _ = desk.replays.release(slot.storage_key()).await;
                Err(e.into())
            }
        }
    };
    outcome.map(|body| Reply::bytes(Status::OK, body))
}

/// Nightly: settle refunds with the processor. One runner at a time.
pub async fn settle_batch(desk: &RefundDesk) -> Result<usize, Fault> {
    let lease = desk.leases.acquire("refund-settlement", Duration::from_secs(600)).await?;
    let pending = desk.orders.refunds_pending().await?;
    let settled = desk.processor.settle(&pending).await?;
    desk.leases.release(lease).await?;
    Ok(settled)
}
