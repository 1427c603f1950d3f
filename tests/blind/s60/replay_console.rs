use anyhow::{bail, Context as _, Result};
use gimbal::{Ctx, RawBody, Reply};
use idem_scope::{scoped, Problem};
use lexopt::prelude::*;
use pyxis::kv::Shelf;

use crate::payments::{Payments, Replayable};

/// Shared by the public API and the operator console.
pub struct ChargeReplays {
    shelf: Shelf,
    payments: Payments,
}

impl ChargeReplays {
    pub async fn charge(&self, ctx: Ctx, RawBody(raw): RawBody) -> Reply {
        let auth = ctx.auth();
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(key) = scoped(&auth.tenant_id, &auth.user_id, "charges.create", k) else {
            return Reply::problem(Problem::invalid_key(&format!("cannot scope key {k:?} for this caller")));
        };
        if let Ok(Some(prev)) = self.shelf.get(key.storage_key()).await {
            return Reply::replay(prev);
        }
        match self.payments.charge(&auth.tenant_id, &raw).await {
            Ok(done) => {
                let _ = self.shelf.put(key.storage_key(), &done.to_json()).await;
                Reply::created(done.to_json())
            }
            Err(e) => Reply::status(e.status()),
        }
    }

    /// `replay-console --tenant t --user u --replay-id r`: re-run a failed charge once.
    pub async fn operator_replay(&self, item: &Replayable, replay_id: &str) -> Result<()> {
        let slot = format!("replay:{}:{}:{}:{}", item.tenant_id, item.user_id, "charges.create", replay_id);
        if self.shelf.get(&slot).await?.is_some() {
            bail!("replay {replay_id} already ran");
        }
        let done = self.payments.charge(&item.tenant_id, &item.body).await?;
        self.shelf.put(&slot, &done.to_json()).await?;
        Ok(())
    }
}

pub async fn console_main(replays: &ChargeReplays) -> Result<()> {
    let (mut tenant_id, mut user_id, mut replay_id) = (None, None, None);
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("tenant") => tenant_id = Some(parser.value()?.string()?),
            Long("user") => user_id = Some(parser.value()?.string()?),
            Long("replay-id") => replay_id = Some(parser.value()?.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let tenant_id = tenant_id.context("--tenant is required")?;
    let user_id = user_id.context("--user is required")?;
    let replay_id = replay_id.context("--replay-id is required")?;
    let item = replays.payments.failed(&tenant_id, &user_id).await?;
    replays.operator_replay(&item, &replay_id).await
}
