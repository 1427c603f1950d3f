use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::{Caller, MaybeSession};
use wicket::extract::{Json, Path};
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct Pledge {
    amount_minor: u64,
    currency: String,
    message: Option<String>,
}

#[derive(Deserialize)]
pub struct StaffPledge {
    on_behalf_of: Option<String>,
    amount_minor: u64,
    currency: String,
}

pub struct Donations {
    vault: Arc<Vault>,
    campaigns: campaigns::Repo,
    processor: processor::Client,
}

impl Donations {
    pub async fn pledge(&self, ctx: &Ctx, session: MaybeSession, Path(campaign_id): Path<String>, Json(p): Json<Pledge>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Some(campaign) = self.campaigns.find(&campaign_id).await else {
            return Reply::status(Status::NOT_FOUND);
        };
        let principal = session.user().map(|u| u.user_id.as_str()).unwrap_or("anonymous");
        let sk = match scoped(&campaign.org_id, principal, "donations.pledge", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let _totals = self.campaigns.lock(&campaign.id).await;
        let receipt = self.processor.pledge(&campaign.id, p.amount_minor, &p.currency, p.message.as_deref()).await;
        let _ = self.vault.put(sk.storage_key(), receipt.to_bytes()).await;
        Reply::bytes(Status::CREATED, receipt.to_bytes())
    }

    pub async fn staff_pledge(&self, ctx: &Ctx, caller: &Caller, Json(p): Json<StaffPledge>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let principal = p.on_behalf_of.as_deref().unwrap_or(&caller.user_id);
        let sk = match scoped(&caller.org_id, principal, "donations.staff_pledge", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let receipt = self.processor.pledge_offline(&caller.org_id, principal, p.amount_minor, &p.currency).await;
        let _ = self.vault.put(sk.storage_key(), receipt.to_bytes()).await;
        Reply::bytes(Status::CREATED, receipt.to_bytes())
    }
}
