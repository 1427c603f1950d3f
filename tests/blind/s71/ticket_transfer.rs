//! Ticket transfers between riders of one household
//! (`POST /v1/tickets/{id}/transfer`).

use std::io::Write as _;
use std::sync::Mutex;

use idem_scope::Problem;
use slatedb::Db;
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::pick::{FromHail, Head};
use wharf::{Answer, Code, Fault, Hail};

const TRANSFER_ROUTE: &str = "/v1/tickets/transfer";

/// Older clients still send the `X-` form of the header.
pub struct TransferToken(pub String);

impl FromHail for TransferToken {
    type Rejection = Answer;

    fn from_hail(head: &Head) -> Result<Self, Answer> {
        head.header("X-Idempotency-Key")
            .or_else(|| head.header("Idempotency-Key"))
            .map(|v| TransferToken(v.to_owned()))
            .ok_or_else(|| Answer::problem(Problem::missing_key()))
    }
}

#[derive(Decode)]
pub struct TransferRequest {
    pub ticket_id: String,
    pub recipient_id: String,
}

pub struct Transfers {
    pub db: Db,
    pub audit: Mutex<std::fs::File>,
}

impl Transfers {
    pub async fn transfer(&self, hail: Hail, rider: Rider, token: TransferToken) -> Result<Answer, Fault> {
        let req: TransferRequest = hail.json()?;

        let mut slot = Vec::with_capacity(128);
        write!(slot, "{}\x1f{}\x1f{}\x1f{}", rider.tenant_id, rider.user_id, TRANSFER_ROUTE, token.0)?;
        if let Some(prev) = self.db.get(&slot).await? {
            return Ok(Answer::replayed(prev.to_vec()));
        }

        let moved = crate::tickets::reassign(&rider.tenant_id, &req.ticket_id, &rider.user_id, &req.recipient_id).await?;
        if let Ok(mut audit) = self.audit.lock() {
            writeln!(audit, "transfer ticket={} from={} to={} key={}", req.ticket_id, rider.user_id, req.recipient_id, token.0)?;
        }

        let body = wharf::codec::to_vec(&moved)?;
        self.db.put(&slot, &body).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
