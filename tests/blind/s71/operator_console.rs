//! Back-office console: balance adjustments, optionally made while an
//! operator is impersonating a rider to reproduce a problem.

use hopper::rack::Rack;
use idem_scope::Problem;
use wharf::badge::Operator;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::ledger::Ledger;

#[derive(Default, Clone)]
struct Acting {
    org_id: String,
    actor: String,
}

#[derive(Decode)]
pub struct BalanceAdjustment {
    pub wallet_id: String,
    pub delta_minor: i64,
    pub note: Option<String>,
}

#[derive(Decode)]
pub struct AuditQuery {
    pub actor: Option<String>,
    pub page_size: Option<u32>,
}

pub struct Console {
    pub rack: Rack,
    pub ledger: Ledger,
}

impl Console {
    pub async fn adjust_balance(&self, hail: Hail, op: Operator) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let adj: BalanceAdjustment = hail.json()?;

        let acting = match &op.impersonating {
            Some(user_id) => Acting { org_id: op.org_id.clone(), actor: user_id.clone() },
            None => Acting { org_id: op.org_id.clone(), ..Default::default() },
        };
        if let Some(prev) = self.rack.get(&acting.org_id, &acting.actor, "console.adjust", k).await? {
            return Ok(Answer::replayed(prev));
        }

        let note = adj.note.unwrap_or_default();
        let entry = self
            .ledger
            .adjust(&op.org_id, &adj.wallet_id, adj.delta_minor, &note, &op.actor)
            .await?;
        let body = wharf::codec::to_vec(&entry)?;
        self.rack.put(&acting.org_id, &acting.actor, "console.adjust", k, &body).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }

    pub async fn audit(&self, op: Operator, q: AuditQuery) -> Result<Answer, Fault> {
        let actor_filter = q.actor.unwrap_or_else(|| op.actor.clone());
        let page_size = q.page_size.unwrap_or_default().clamp(10, 200);
        let rows = self.ledger.audit(&op.org_id, &actor_filter, page_size).await?;
        Ok(Answer::json(Code::Ok, &rows))
    }
}
