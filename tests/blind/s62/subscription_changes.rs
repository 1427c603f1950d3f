use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

pub struct OidcIdentity {
    pub org_id: String,
    /// Identity-provider subject, e.g. `auth0|64f1c2` or `google-oauth2|1045`.
    pub sub: String,
}

#[derive(Deserialize)]
pub struct PlanChange {
    plan: String,
    seats: u32,
    prorate: bool,
}

pub struct Subscriptions {
    vault: Arc<Vault>,
    billing: billing::Client,
    oidc: oidc_lite::Validator,
}

impl Subscriptions {
    pub async fn change_plan(&self, ctx: &Ctx, Json(change): Json<PlanChange>) -> Reply {
        let Some(identity) = self.oidc.identity(ctx).await else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let Some(header) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let client_key = header.trim_matches('"');
        let subject: String = identity.sub.chars().filter(|c| *c != '|').collect();
        let sk = match scoped(&identity.org_id, &subject, "subscriptions.change_plan", client_key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let invoice = match self.billing.change_plan(&identity.org_id, &change.plan, change.seats, change.prorate).await {
            Ok(inv) => inv,
            Err(e) => return Reply::text(Status::PAYMENT_REQUIRED, e.to_string()),
        };
        let _ = self.vault.put(sk.storage_key(), invoice.to_bytes()).await;
        Reply::bytes(Status::OK, invoice.to_bytes())
    }
}
