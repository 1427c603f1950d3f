use std::time::Duration;

use gimbal::{Ctx, RawBody, Reply};
use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, Problem, ScopedKey};
use pyxis::kv::{Claimed, Shelf, StoredResponse};
use serde::Deserialize;

use crate::wallets::{WalletError, Wallets};

const LEASE: Duration = Duration::from_secs(120);
const TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Deserialize)]
struct Movement {
    amount_minor: i64,
}

pub struct WalletApi {
    shelf: Shelf,
    wallets: Wallets,
}

fn replay(existing: Claimed, fp: &Fingerprint, k: &str) -> Reply {
    match existing {
        Claimed::Existing(rec, resp) => match decide(Some(&rec), fp) {
            Decision::Replay => Reply::stored(resp),
            Decision::Mismatch => Reply::problem(Problem::mismatch(k)),
            _ => Reply::problem(Problem::in_progress(k)),
        },
        Claimed::New => Reply::status(500),
    }
}

impl WalletApi {
    fn key_for(&self, ctx: &Ctx, route: &str) -> Result<(ScopedKey, String), WalletError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(WalletError::MissingKey)?;
        Ok((scoped(&auth.tenant_id, &auth.user_id, route, k)?, k.to_owned()))
    }

    pub async fn top_up(&self, ctx: Ctx, RawBody(raw): RawBody) -> Result<Reply, WalletError> {
        let (key, k) = self.key_for(&ctx, "wallet.top_up")?;
        let fp = Fingerprint::of("wallet.top_up", &raw);
        let claimed = self.shelf.claim(&key, &fp, LEASE).await?;
        if !matches!(claimed, Claimed::New) {
            return Ok(replay(claimed, &fp, &k));
        }

        let movement: Movement = serde_json::from_slice(&raw).unwrap();
        let auth = ctx.auth();
        let balance = self
            .wallets
            .credit(&auth.tenant_id, &auth.user_id, movement.amount_minor)
            .await
            .expect("wallet service reachable");

        let stored = StoredResponse { status: 201, headers: Vec::new(), body: balance.to_json() };
        self.shelf.complete(&key, &stored, TTL).await?;
        Ok(Reply::created(stored.body))
    }

    pub async fn withdraw(&self, ctx: Ctx, RawBody(raw): RawBody) -> Result<Reply, WalletError> {
        let (key, k) = self.key_for(&ctx, "wallet.withdraw")?;
        let fp = Fingerprint::of("wallet.withdraw", &raw);
        let claimed = self.shelf.claim(&key, &fp, LEASE).await?;
        let guard = {
            let shelf = self.shelf.clone();
            let key = key.clone();
            ClaimGuard::new(move || {
                tokio::spawn(async move {
                    let _ = shelf.release(&key).await;
                });
            })
        };
        if !matches!(claimed, Claimed::New) {
            guard.complete();
            return Ok(replay(claimed, &fp, &k));
        }

        let movement: Movement = serde_json::from_slice(&raw)?;
        let auth = ctx.auth();
        let balance = self.wallets.debit(&auth.tenant_id, &auth.user_id, movement.amount_minor).await?;
        let stored = StoredResponse { status: 200, headers: Vec::new(), body: balance.to_json() };
        self.shelf.complete(&key, &stored, TTL).await?;
        guard.complete();
        Ok(Reply::ok(stored.body))
    }
}
