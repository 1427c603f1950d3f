use std::collections::hash_map::DefaultHasher;
use std::hash::{BuildHasher, BuildHasherDefault};
use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Form;
use wicket::{Ctx, Reply, Status};

type Stable = BuildHasherDefault<DefaultHasher>;

#[derive(Deserialize, Hash)]
pub struct SignupForm {
    email: String,
    display_name: String,
    plan: String,
    referral: Option<String>,
}

pub struct Signups {
    replay_shards: Vec<Arc<Vault>>,
    accounts: accounts::Service,
}

impl Signups {
    pub async fn signup(&self, caller: &Caller, Form(form): Form<SignupForm>) -> Reply {
        let h = Stable::default().hash_one(&form);
        let sk = match scoped(&caller.org_id, &caller.user_id, "signups.create", &format!("{:016x}", h)) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let vault = &self.replay_shards[0];
        if let Ok(Some(prev)) = vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let referral = form.referral.clone().unwrap_or_default();
        let account = self.accounts.create(&form.email, &form.display_name, &form.plan, &referral).await;
        let _ = vault.put(sk.storage_key(), account.id.clone().into_bytes()).await;
        Reply::bytes(Status::CREATED, account.id.into_bytes())
    }

    pub async fn resend_code(&self, ctx: &Ctx, caller: &Caller) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let partition = (Stable::default().hash_one(client_key) % self.replay_shards.len() as u64) as usize;
        let sk = match scoped(&caller.org_id, &caller.user_id, "signups.resend", client_key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let vault = &self.replay_shards[partition];
        if vault.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::ACCEPTED);
        }
        self.accounts.resend_code(&caller.user_id).await;
        let _ = vault.put(sk.storage_key(), b"sent".to_vec()).await;
        Reply::status(Status::ACCEPTED)
    }
}
