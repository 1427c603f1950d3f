use idem_scope::{scoped, ScopeError};
use kameo::message::{Context, Message};
use kameo::Actor;

#[derive(Actor)]
pub struct ClaimsDesk {
    records: ClaimRecords,
    adjusters: AdjusterPool,
}

pub struct FileClaim {
    pub raw_headers: Vec<(String, String)>,
    pub tenant_slug: String,
    pub user_id: String,
    pub policy_no: String,
}

impl FileClaim {
    fn header(&self, name: &str) -> Option<&str> {
        self.raw_headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

impl Message<FileClaim> for ClaimsDesk {
    type Reply = Result<String, DeskError>;

    async fn handle(&mut self, msg: FileClaim, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let submission_key = msg.header("Idempotency-Key").ok_or(DeskError::MissingKey)?.to_owned();
        if submission_key.contains('\0') {
            return Err(DeskError::Scope(ScopeError::ContainsSeparator(idem_scope::Component::Key)));
        }
        let tenant = msg.tenant_slug.replace('\0', "");
        let key = scoped(&tenant, &msg.user_id, "claims.file", &submission_key)?;
        if let Some(prev) = self.records.lookup(&key).await? {
            return Ok(prev);
        }
        let claim_no = self.adjusters.open(&tenant, &msg.policy_no).await?;
        self.records.save(&key, &claim_no).await?;
        Ok(claim_no)
    }
}
