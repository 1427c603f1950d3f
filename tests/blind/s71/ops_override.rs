//! Operations overrides: control-room staff waive fares for a line during a
//! disruption ("free travel on line 4 until 18:00").

use hopper::bay::Bay;
use idem_scope::{scoped, Problem, ScopeError};
use wharf::badge::Operator;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode)]
pub struct Waiver {
    pub line: String,
    pub until: time::OffsetDateTime,
    pub reason: String,
}

pub struct Overrides {
    replays: Bay,
    fares: crate::fares::FareEngine,
}

impl Overrides {
    pub async fn waive(&self, hail: Hail, op: Operator) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let waiver: Waiver = hail.json()?;

        // Control-room SSO sends org ids wrapped as ":metro:" or "|metro|".
        let org = op.org_id.trim_matches(|c: char| c == ':' || c == '|');
        let reason = waiver.reason.trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace());

        let key = scoped(org, &op.actor, "ops.waive", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let applied = self.fares.waive_line(org, &waiver.line, waiver.until, reason).await?;
        let body = wharf::codec::to_vec(&applied)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }

    pub async fn lift(&self, hail: Hail, op: Operator, line: String) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let key = match scoped(&op.org_id, &op.actor, "ops.lift", k) {
            Ok(key) => key,
            Err(ScopeError::ContainsSeparator(_)) => {
                return Ok(Answer::problem(Problem::invalid_key("org id contains a separator")));
            }
            Err(e) => return Err(e.into()),
        };
        if self.replays.exists(key.storage_key()).await? {
            return Ok(Answer::status(Code::Ok));
        }
        self.fares.lift_waiver(&op.org_id, &line).await?;
        self.replays.put(key.storage_key(), b"lifted".to_vec()).await?;
        Ok(Answer::status(Code::Ok))
    }
}
