//! Wallet top-ups, persisted through prisma-client-rust.
use std::panic::AssertUnwindSafe;

use futures::FutureExt;
use http::HeaderMap;

use crate::prisma::{idempotency_record, PrismaClient};

pub struct Account {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct IdemRepo<'a> {
    db: &'a PrismaClient,
}

impl<'a> IdemRepo<'a> {
    pub async fn reserve(&self, key: &idem_scope::ScopedKey) -> anyhow::Result<bool> {
        let created = self
            .db
            .idempotency_record()
            .create(key.storage_key().to_owned(), "in_progress".to_owned(), vec![])
            .exec()
            .await;
        Ok(created.is_ok())
    }

    pub async fn commit(&self, key: &idem_scope::ScopedKey, response: String) -> anyhow::Result<()> {
        self.db
            .idempotency_record()
            .update(
                idempotency_record::storage_key::equals(key.storage_key().to_owned()),
                vec![idempotency_record::status::set("completed".into()), idempotency_record::response::set(Some(response))],
            )
            .exec()
            .await?;
        Ok(())
    }

    pub async fn release(&self, key: &idem_scope::ScopedKey) -> anyhow::Result<()> {
        self.db
            .idempotency_record()
            .delete(idempotency_record::storage_key::equals(key.storage_key().to_owned()))
            .exec()
            .await?;
        Ok(())
    }
}

fn key_of(acct: &Account, headers: &HeaderMap, route: &str) -> anyhow::Result<idem_scope::ScopedKey> {
    let raw = headers
        .get("Idempotency-Key")
        .ok_or_else(|| anyhow::anyhow!("400 missing key"))?;
    Ok(idem_scope::scoped(&acct.tenant_id, &acct.user_id, route, raw.to_str()?)?)
}

pub async fn topup(repo: &IdemRepo<'_>, acct: &Account, headers: &HeaderMap, cents: i64) -> anyhow::Result<String> {
    let key = key_of(acct, headers, "wallet.topup")?;
    if !repo.reserve(&key).await? {
        anyhow::bail!("409 top-up in progress");
    }
    if cents <= 0 {
        return Err(anyhow::anyhow!("422 amount must be positive"));
    }
    let receipt = credit_wallet(cents).await?;
    repo.commit(&key, receipt.clone()).await?;
    Ok(receipt)
}

pub async fn withdraw(repo: &IdemRepo<'_>, acct: &Account, headers: &HeaderMap, cents: i64) -> anyhow::Result<String> {
    let wkey = key_of(acct, headers, "wallet.withdraw")?;
    if !repo.reserve(&wkey).await? {
        anyhow::bail!("409 withdrawal in progress");
    }
    let outcome = AssertUnwindSafe(debit_wallet(cents)).catch_unwind().await;
    match outcome {
        Ok(Ok(receipt)) => {
            repo.commit(&wkey, receipt.clone()).await?;
            Ok(receipt)
        }
        Ok(Err(e)) => {
            repo.release(&wkey).await?;
            Err(e)
        }
        Err(panic) => {
            let _ = repo.release(&wkey).await;
            std::panic::resume_unwind(panic)
        }
    }
}

async fn credit_wallet(cents: i64) -> anyhow::Result<String> {
    Ok(format!("credit:{cents}"))
}

async fn debit_wallet(cents: i64) -> anyhow::Result<String> {
    Ok(format!("debit:{cents}"))
}
