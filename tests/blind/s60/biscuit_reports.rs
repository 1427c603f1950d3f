use biscuit_auth::{Authorizer, Biscuit, PublicKey};
use gimbal::{Ctx, Reply};
use idem_scope::scoped;
use pyxis::kv::Shelf;
use tracing::info;

use crate::reports::{ReportError, ReportKind, Reports};

pub struct ReportApi {
    root: PublicKey,
    replays: Shelf,
    reports: Reports,
}

fn facts(token: &Biscuit) -> Result<(Option<String>, String), ReportError> {
    let mut authorizer: Authorizer = token.authorizer()?;
    let orgs: Vec<(String,)> = authorizer.query("data($org) <- org($org)")?;
    let users: Vec<(String,)> = authorizer.query("data($u) <- user($u)")?;
    let user_id = users.into_iter().next().map(|(u,)| u).ok_or(ReportError::NoUser)?;
    Ok((orgs.into_iter().next().map(|(o,)| o), user_id))
}

impl ReportApi {
    pub async fn generate(&self, ctx: Ctx, kind: ReportKind) -> Result<Reply, ReportError> {
        let raw = ctx
            .header("Authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or(ReportError::Unauthenticated)?;
        let token = Biscuit::from_base64(raw, self.root)?;
        let (org, user_id) = facts(&token)?;
        let tenant_id = org.unwrap_or_default();

        let k = ctx.header("Idempotency-Key").ok_or(ReportError::MissingKey)?;
        let key = scoped(&tenant_id, &user_id, "reports.generate", k)?;
        info!(report = %kind, key = %k, "report requested");

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let report = self.reports.generate(&tenant_id, &user_id, kind).await?;
        let summary = format!("{} rows, generated for {}", report.rows(), user_id);
        self.replays.put(key.storage_key(), report.location().as_bytes()).await?;
        Ok(Reply::accepted(report.location()).with_header("X-Report-Summary", &summary))
    }
}
