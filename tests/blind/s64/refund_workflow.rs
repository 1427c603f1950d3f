use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use sextant::locker::Locker;
use snafu::{ResultExt, Snafu};

#[derive(Debug, Snafu)]
pub enum FlowError {
    #[snafu(display("scope: {source}"))]
    Scope { source: idem_scope::ScopeError },
    #[snafu(display("locker: {source}"))]
    Store { source: sextant::Error },
    #[snafu(display("psp: {source}"))]
    Psp { source: crate::psp::Error },
}

pub enum RefundKind {
    Full,
    Partial(i64),
    Chargeback,
}

pub struct RefundFlow {
    locker: Locker,
    psp: crate::psp::PspClient,
}

impl RefundFlow {
    pub async fn run(&self, tenant_id: &str, user_id: &str, key: &str, charge: &str, kind: RefundKind) -> Result<Vec<u8>, FlowError> {
        let sk: ScopedKey = scoped(tenant_id, user_id, "refund", key).context(ScopeSnafu)?;
        self.locker.claim(sk.storage_key(), Duration::from_secs(300)).await.context(StoreSnafu)?;
        let result = match kind {
            RefundKind::Full => self.psp.refund_full(charge).await,
            RefundKind::Partial(amount) => self.psp.refund_partial(charge, amount).await,
            RefundKind::Chargeback => todo!("chargebacks go through disputes"),
        };
        match result {
            Ok(r) => {
                let body = r.to_bytes();
                self.locker.complete(sk.storage_key(), &body).await.context(StoreSnafu)?;
                Ok(body)
            }
            Err(e) => {
                self.locker.release(sk.storage_key()).await.context(StoreSnafu)?;
                Err(FlowError::Psp { source: e })
            }
        }
    }

    pub async fn status(&self, tenant_id: &str, user_id: &str, key: &str) -> Result<Option<Vec<u8>>, FlowError> {
        let sk = scoped(tenant_id, user_id, "refund", key).context(ScopeSnafu)?;
        self.locker.get(sk.storage_key()).await.context(StoreSnafu)
    }
}
