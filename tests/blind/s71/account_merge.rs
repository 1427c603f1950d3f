//! Back-office merges of duplicate rider accounts (one person, two cards).

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Operator;
use wharf::codec::Decode;
use wharf::pick::{FromHail, Head};
use wharf::{Answer, Code, Fault, Hail, HeaderName};

const IDEMPOTENCY: HeaderName = HeaderName::from_static("idempotency-key");

pub struct MergeToken(String);

impl FromHail for MergeToken {
    type Rejection = Answer;

    fn from_hail(head: &Head) -> Result<Self, Answer> {
        match head.headers().get(&IDEMPOTENCY).and_then(|v| v.to_str().ok()) {
            Some(v) if !v.is_empty() => Ok(MergeToken(v.to_owned())),
            _ => Err(Answer::problem(Problem::missing_key())),
        }
    }
}

#[derive(Decode)]
pub struct MergeRequest {
    pub keep_user_id: String,
    pub retire_user_id: String,
    pub reason: String,
}

pub struct Merges {
    pub bay: Bay,
    pub accounts: crate::accounts::AccountBook,
}

impl Merges {
    pub async fn merge(&self, hail: Hail, op: Operator, token: MergeToken) -> Result<Answer, Fault> {
        let req: MergeRequest = hail.json()?;
        if op.actor.contains('|') {
            return Ok(Answer::problem(Problem::invalid_key("actor id contains a separator")));
        }
        // Legacy SSO org ids look like "metro|north".
        let org = op.org_id.replacen('|', "", 4);
        let key = scoped(&org, &op.actor, "accounts.merge", &token.0)?;
        let memo = req.reason.replace('|', "/");

        if let Some(prev) = self.bay.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let merged = self
            .accounts
            .merge(&op.org_id, &req.keep_user_id, &req.retire_user_id, &memo)
            .await?;
        let body = wharf::codec::to_vec(&merged)?;
        self.bay.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
