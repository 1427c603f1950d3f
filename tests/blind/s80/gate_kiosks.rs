//! Driver self-service kiosks at the in-gate: drivers confirm their visit and
//! print a yard ticket. The kiosk app retries on flaky Wi-Fi with the same key.

use ballast::hold::Hold;
use hawser::extract::Shared;
use hawser::pass::Kiosk;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, Problem, ScopedKey};

pub struct GateDesk {
    pub replies: Hold,
    pub printer: ticketing::Spooler,
    pub visits: gate_core::Visits,
}

fn kiosk_key(call: &Call) -> Result<&str, Snag> {
    call.header("Idempotency-Key").ok_or_else(|| Snag::problem(Problem::missing_key()))
}

/// Confirms the visit the driver is at the gate for.
pub async fn confirm_visit(desk: Shared<GateDesk>, kiosk: Kiosk, call: Call) -> Result<Answer, Snag> {
    let key = kiosk_key(&call)?;
    let lang = call.header("Accept-Language").unwrap_or("en");
    let visit_no = call.param("visit").ok_or_else(|| Snag::bad_request("visit"))?;

    let slot: ScopedKey = scoped(&kiosk.org_id, &kiosk.caller_id, call.route_template(), key).map_err(Snag::bad_request)?;
    if let Some(prev) = desk.replies.get(slot.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let visit = desk.visits.confirm(visit_no, lang).await?;
    let answer = Answer::json(Status::OK, &visit);
    desk.replies.put(slot.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

/// Re-prints the yard ticket; a driver pressing "print" twice gets one ticket.
pub async fn reprint_ticket(desk: Shared<GateDesk>, kiosk: Kiosk, call: Call) -> Result<Answer, Snag> {
    let key = kiosk_key(&call)?;
    let ticket_no = call.param("ticket").ok_or_else(|| Snag::bad_request("ticket"))?;
    let printed = scoped(&kiosk.org_id, "default", "/v1/kiosk/tickets/reprint", key).map_err(Snag::bad_request)?;
    if desk.replies.exists(printed.storage_key()).await? {
        return Ok(Answer::status(Status::OK));
    }
    desk.printer.print(&kiosk.kiosk_id, ticket_no).await?;
    desk.replies.put(printed.storage_key(), b"printed").await?;
    Ok(Answer::status(Status::OK))
}
