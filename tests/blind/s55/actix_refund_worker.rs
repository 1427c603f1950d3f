use actix::prelude::*;
use ferrum::idem::{BeginOutcome, IdemError, IdemTable};
use idem_scope::{scoped, ScopedKey};
use relay::http::HeaderMap;

#[derive(Debug, thiserror::Error)]
pub enum RefundError {
    #[error("a refund with this key is in progress")]
    InProgress,
    #[error("idempotency store: {0}")]
    Idem(#[from] IdemError),
    #[error("psp: {0}")]
    Psp(String),
}

#[derive(Message)]
#[rtype(result = "Result<Vec<u8>, RefundError>")]
pub struct IssueRefund {
    pub scope: ScopedKey,
    pub payment_id: String,
    pub amount: String,
}

#[derive(Message)]
#[rtype(result = "Result<Vec<u8>, RefundError>")]
pub struct VoidRefund {
    pub scope: ScopedKey,
    pub refund_id: String,
}

impl IssueRefund {
    pub fn from_request(headers: &HeaderMap, tenant: &str, user: &str, payment_id: String, amount: String) -> Option<Self> {
        let key = headers.get("idempotency-key")?.to_str().ok()?;
        let scope = scoped(tenant, user, "refunds.issue", key).ok()?;
        Some(Self { scope, payment_id, amount })
    }
}

pub struct RefundWorker {
    idem: IdemTable,
    psp: psp::BlockingClient,
}

impl Actor for RefundWorker {
    type Context = SyncContext<Self>;
}

impl Handler<IssueRefund> for RefundWorker {
    type Result = Result<Vec<u8>, RefundError>;

    fn handle(&mut self, msg: IssueRefund, _ctx: &mut SyncContext<Self>) -> Self::Result {
        match self.idem.begin(&msg.scope)? {
            BeginOutcome::Fresh => {}
            BeginOutcome::Done(saved) => return Ok(saved),
            BeginOutcome::Busy => return Err(RefundError::InProgress),
        }
        let amount = money::Money::parse(&msg.amount).expect("amount validated at the edge");
        let refund = self.psp.refund(&msg.payment_id, amount).map_err(RefundError::Psp)?;
        let body = serde_json::to_vec(&refund).unwrap();
        self.idem.commit(&msg.scope, &body)?;
        Ok(body)
    }
}

impl Handler<VoidRefund> for RefundWorker {
    type Result = Result<Vec<u8>, RefundError>;

    fn handle(&mut self, msg: VoidRefund, _ctx: &mut SyncContext<Self>) -> Self::Result {
        match self.idem.begin(&msg.scope)? {
            BeginOutcome::Fresh => {}
            BeginOutcome::Done(saved) => return Ok(saved),
            BeginOutcome::Busy => return Err(RefundError::InProgress),
        }
        let voided = match self.psp.void(&msg.refund_id) {
            Ok(v) => v,
            Err(e) => {
                self.idem.abandon(&msg.scope)?;
                return Err(RefundError::Psp(e));
            }
        };
        let body = serde_json::to_vec(&voided).unwrap_or_else(|_| b"{}".to_vec());
        self.idem.commit(&msg.scope, &body)?;
        Ok(body)
    }
}
