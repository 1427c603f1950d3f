//! Agency settlement runs: an operator closes a settlement period and the
//! net amounts of the period's clearing batches are paid out.

use std::time::Duration;

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Operator;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::clearing::Clearing;

const LEASE: Duration = Duration::from_secs(300);

#[derive(Decode)]
pub struct SettleRequest {
    pub period: String,
}

enum Outcome {
    Busy,
    Disputed(String),
    Done(Vec<u8>),
}

pub struct Settlements {
    bay: Bay,
    clearing: Clearing,
}

impl Settlements {
    pub async fn settle(&self, hail: Hail, op: Operator) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: SettleRequest = hail.json()?;
        let key = scoped(&op.org_id, &op.actor, "settlement.run", k)?;

        let outcome = 'settle: {
            if !self.bay.try_acquire(key.storage_key(), LEASE).await? {
                break 'settle Outcome::Busy;
            }
            let batches = self.clearing.open_batches(&op.org_id, &req.period).await;
            let mut net_minor = 0i64;
            for batch in &batches {
                if batch.disputed {
                    break 'settle Outcome::Disputed(batch.id.clone());
                }
                net_minor += batch.net_minor;
            }
            let body = wharf::json!({ "period": req.period, "net_minor": net_minor }).to_string().into_bytes();
            self.bay.complete(key.storage_key(), &body).await?;
            Outcome::Done(body)
        };

        Ok(match outcome {
            Outcome::Busy => Answer::problem(Problem::in_progress(k)),
            Outcome::Disputed(id) => Answer::text(Code::Conflict, &format!("batch {id} is disputed")),
            Outcome::Done(body) => Answer::bytes(Code::Ok, body),
        })
    }

    pub async fn preview(&self, hail: Hail, op: Operator) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: SettleRequest = hail.json()?;
        let key = scoped(&op.org_id, &op.actor, "settlement.preview", k)?;

        if !self.bay.try_acquire(key.storage_key(), Duration::from_secs(30)).await? {
            return Ok(Answer::problem(Problem::in_progress(k)));
        }
        let batches = self.clearing.open_batches(&op.org_id, &req.period).await;
        let mut first_disputed = None;
        for batch in &batches {
            if batch.disputed {
                first_disputed = Some(batch.id.clone());
                break;
            }
        }
        let body = wharf::json!({ "batches": batches.len(), "first_disputed": first_disputed })
            .to_string()
            .into_bytes();
        self.bay.complete(key.storage_key(), &body).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
