//! Revenue-share settlement statements for partner agencies in a fare
//! alliance. The alliance hub calls in with the agency named in a header.

use hopper::rack::Rack;
use idem_scope::Problem;
use wharf::badge::PartnerKey;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode)]
pub struct Statement {
    pub period: String,
    pub gross_minor: i64,
    pub share_bp: u32,
}

pub struct AllianceSettlement {
    rack: Rack,
    ledger: crate::ledger::Ledger,
}

impl AllianceSettlement {
    pub async fn post_statement(&self, hail: Hail, hub: PartnerKey) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let stmt: Statement = hail.json()?;
        let tenant_id = hail.header("X-Agency-Id").unwrap_or("");
        let correlation = hail.header("X-Correlation-Id").unwrap_or("");

        if let Some(prev) = self.rack.get(tenant_id, &hub.client_id, "alliance.statement", k).await? {
            return Ok(Answer::replayed(prev));
        }
        tracing::info!(%correlation, period = %stmt.period, "alliance statement received");
        let share_minor = stmt.gross_minor * i64::from(stmt.share_bp) / 10_000;
        let entry = self.ledger.alliance_share(tenant_id, &hub.account_id, &stmt.period, share_minor).await?;
        let body = wharf::codec::to_vec(&entry)?;
        self.rack.put(tenant_id, &hub.client_id, "alliance.statement", k, &body).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
