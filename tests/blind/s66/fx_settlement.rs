use std::sync::Arc;
use std::time::Duration;

use custom_error::custom_error;
use idem_scope::{scoped, Problem, ScopeError};
use lintel::{Answer, Call, Code};
use skerry::escrow::{Escrow, EscrowError};

use crate::fx_desk::{Currency, SettlementRequest, Treasury};

custom_error! { pub SettleError
    Scope{source: ScopeError} = "scope: {source}",
    Escrow{source: EscrowError} = "escrow: {source}",
    Upstream{reason: String} = "treasury: {reason}",
    BadBody = "malformed settlement request",
}

const LEASE: Duration = Duration::from_secs(45);

pub struct Settlements {
    escrow: Arc<Escrow>,
    treasury: Arc<Treasury>,
}

impl Settlements {
    pub async fn settle(&self, call: Call) -> Answer {
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        match self.settle_inner(&call, key).await {
            Ok(Some(body)) => Answer::bytes(Code::OK, body),
            Ok(None) => Answer::problem(Problem::in_progress(key)),
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }

    async fn settle_inner(&self, call: &Call, key: &str) -> Result<Option<Vec<u8>>, SettleError> {
        let who = call.identity().ok_or(SettleError::BadBody)?;
        let slot = scoped(&who.org_id, &who.user_id, "fx_settle", key)?;
        if !self.escrow.reserve(slot.storage_key(), LEASE).await? {
            return Ok(self.escrow.committed(slot.storage_key()).await?);
        }

        let req: SettlementRequest = call.json().map_err(|_| SettleError::BadBody)?;
        let rate = match req.sell {
            Currency::Eur => self.treasury.rate("EUR", &req.buy).await,
            Currency::Usd => self.treasury.rate("USD", &req.buy).await,
            Currency::Chf => self.treasury.rate("CHF", &req.buy).await,
            Currency::Jpy => todo!("JPY settlement desk"),
        }
        .map_err(|e| SettleError::Upstream { reason: e.to_string() })?;

        let confirmation = self
            .treasury
            .book(&who.org_id, &req, rate)
            .await
            .map_err(|e| SettleError::Upstream { reason: e.to_string() })?;
        let body = confirmation.to_json().into_bytes();
        self.escrow.commit(slot.storage_key(), &body).await?;
        Ok(Some(body))
    }
}
