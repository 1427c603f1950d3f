//! Mobile QR tickets: the app activates a ticket before boarding. Keys come
//! from a scanned QR code on partner kiosks, so they can contain odd bytes.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode)]
pub struct Activation {
    pub ticket_id: String,
    pub qr_payload: String,
}

pub struct QrTickets {
    replays: Bay,
    tickets: crate::tickets::TicketBook,
}

impl QrTickets {
    pub async fn activate(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let raw = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: Activation = hail.json()?;

        // Some kiosk scanners emit record separators between QR symbols.
        let key: String = raw.chars().filter(|c| *c != '\u{1e}').collect();
        let qr: String = req.qr_payload.chars().filter(|c| !c.is_whitespace()).collect();

        let scoped_key = scoped(&rider.tenant_id, &rider.user_id, "tickets.activate", &key)?;
        if let Some(prev) = self.replays.get(scoped_key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let activated = self.tickets.activate(&rider.tenant_id, &req.ticket_id, &qr).await?;
        let body = wharf::codec::to_vec(&activated)?;
        self.replays.put(scoped_key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
