//! Timed-entry day tickets: `POST /v1/tickets`.

use enclosure::extract::{RawBody, Shared};
use enclosure::pass::Member;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::{decide, Decision, Fingerprint, Problem};
use lagoon::holds::Holds;
use lagoon::tank::Tank;
use serde::Deserialize;

const ROUTE: &str = "tickets.purchase";
const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

#[derive(Deserialize)]
struct TicketOrder {
    entry_window: String,
    adults: u8,
    children: u8,
    seniors: u8,
}

impl TicketOrder {
    fn heads(&self) -> u32 {
        u32::from(self.adults) + u32::from(self.children) + u32::from(self.seniors)
    }
}

pub struct TicketDesk {
    pub replays: Tank,
    pub holds: Holds,
    pub pricing: crate::pricing::Pricebook,
}

pub async fn purchase(
    visit: Visit,
    Shared(desk): Shared<TicketDesk>,
    member: Member,
    RawBody(raw): RawBody,
) -> Result<Reply, Fault> {
    let key = visit
        .header(IDEMPOTENCY_KEY)
        .map(str::to_owned)
        .ok_or_else(|| Fault::from(Problem::missing_key()))?;
    tracing::info!(org = %member.org_id, "ticket purchase with key {key}");

    let slot = [member.org_id.as_str(), member.user_id.as_str(), ROUTE].iter().copied().chain(std::iter::once(key.as_str())).collect::<Vec<_>>().join("|");
    let fingerprint = Fingerprint::of(ROUTE, &raw);

    let existing = desk.replays.get_record(&slot).await?;
    match decide(existing.as_ref(), &fingerprint) {
        Decision::Replay => {
            let body = desk.replays.get(&slot).await?.unwrap_or_default();
            return Ok(Reply::bytes(Status::OK, body).replayed());
        }
        Decision::InProgress => return Err(Problem::in_progress(&key).into()),
        Decision::Mismatch => return Err(Problem::mismatch(&key).into()),
        Decision::Proceed => {}
    }

    let order: TicketOrder = serde_json::from_slice(&raw).map_err(Fault::bad_request)?;
    let hold = desk.holds.reserve(&order.entry_window, order.heads()).await?;
    let quote = desk.pricing.quote(&member, order.adults, order.children, order.seniors)?;
    let tickets = desk.holds.commit(hold, &quote).await?;

    let body = serde_json::to_vec(&tickets).map_err(Fault::internal)?;
    desk.replays.put(&slot, &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
