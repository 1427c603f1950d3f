use std::sync::Arc;
use std::time::Duration;

use failure::{bail, err_msg, Error, ResultExt};
use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::psp::{CaptureOrder, Psp};

const LEASE: Duration = Duration::from_secs(90);

pub struct CaptureHandler {
    stash: Arc<Stash>,
    psp: Arc<Psp>,
}

impl CaptureHandler {
    pub async fn handle(&self, call: Call) -> Answer {
        match self.capture_inner(&call).await {
            Ok(answer) => answer,
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }

    async fn capture_inner(&self, call: &Call) -> Result<Answer, Error> {
        let who = call.identity().ok_or_else(|| err_msg("unauthenticated"))?;
        let key = match call.header("Idempotency-Key") {
            Some(k) => k,
            None => return Ok(Answer::problem(Problem::missing_key())),
        };
        let slot = scoped(&who.tenant_id, &who.user_id, "capture", key).context("scope")?;

        if let Some(prev) = self.stash.get(slot.storage_key()).await.context("lookup")? {
            return Ok(Answer::bytes(Code::OK, prev));
        }
        if !self.stash.claim(slot.storage_key(), LEASE).await.context("claim")? {
            return Ok(Answer::problem(Problem::in_progress(key)));
        }

        let order: CaptureOrder = call.json().context("body")?;
        if order.amount_minor == 0 {
            bail!("capture amount must be positive");
        }
        let receipt = self.psp.capture(&who.tenant_id, &order).await.context("psp")?;
        let body = receipt.encode();
        self.stash.complete(slot.storage_key(), &body).await.context("complete")?;
        Ok(Answer::bytes(Code::CREATED, body))
    }
}
