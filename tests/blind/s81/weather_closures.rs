//! Weather closures (lightning, extreme heat): guests can request a refund
//! for a closed time slot, and the closure job refunds everyone with a
//! ticket for the closed slots automatically.

use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use ulid::Ulid;

use crate::extractors::Caller;

pub struct Closures {
    replays: Tank,
    tickets: crate::tickets::Ledger,
    processor: crate::payments::Processor,
    sms: crate::sms::Gateway,
}

impl Closures {
    /// `POST /v1/closures/{slot}/refund`: a guest asks for their refund.
    pub async fn guest_refund(&self, visit: Visit, caller: Caller) -> Result<Reply, Fault> {
        let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
        let slot_id = visit.param("slot").ok_or_else(|| Fault::not_found("slot"))?;
        let replay = scoped(&caller.org_id, &caller.user_id, "orders.refund", key).map_err(Fault::bad_request)?;
        if let Some(prev) = self.replays.get(replay.storage_key()).await? {
            return Ok(Reply::bytes(Status::OK, prev).replayed());
        }
        let refund = self.processor.refund_slot(&caller.org_id, &caller.user_id, slot_id).await?;
        let body = serde_json::to_vec(&refund).map_err(Fault::internal)?;
        self.replays.put(replay.storage_key(), &body).await?;
        Ok(Reply::bytes(Status::OK, body))
    }

    /// Run by the duty manager's "close slots" button.
    pub async fn refund_closed_slots(&self, org_id: &str, slot_ids: &[String]) -> Result<u32, Fault> {
        let run_id = Ulid::new();
        let notice_id = Ulid::new();
        let mut refunded = 0;
        for t in self.tickets.for_slots(org_id, slot_ids).await? {
            let replay = scoped(&t.org_id, &t.user_id, "orders.refund", &format!("{run_id}.{}", t.ticket_id)).map_err(Fault::internal)?;
            if self.replays.exists(replay.storage_key()).await? {
                continue;
            }
            let refund = self.processor.refund_ticket(&t).await?;
            self.replays.put(replay.storage_key(), &serde_json::to_vec(&refund).unwrap_or_default()).await?;
            self.sms.send(&t.phone, "Your visit was closed for weather; a refund is on its way.", &[("X-Notice-Id", notice_id.to_string())]).await.ok();
            refunded += 1;
        }
        Ok(refunded)
    }
}
