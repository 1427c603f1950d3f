//! Relays restaurant POS tickets to the PMS in a background task.
use std::sync::Arc;

use coffer::drawer::Drawer;
use idem_scope::{scoped, ClaimGuard, Fingerprint};
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

pub async fn relay(visit: Visit, member: Member, store: Arc<Drawer>) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key").map(str::to_owned) else {
        return Verdict::status(Status::BadRequest);
    };
    let raw = visit.body_bytes().await.unwrap_or_default();
    let Ok(sk) = scoped(&member.tenant_id, &member.user_id, "pos.relay", &key) else {
        return Verdict::status(Status::BadRequest);
    };
    let fp = Fingerprint::of("pos.relay", &raw);
    tokio::spawn(async move {
        store.try_claim(sk.storage_key(), &fp).await?;
        let ticket = crate::pos::forward(&raw).await?;
        store.complete(sk.storage_key(), &ticket).await?;
        Ok::<_, anyhow::Error>(())
    });
    Verdict::status(Status::Accepted)
}

pub async fn relay_guarded(member: Member, key: String, raw: Vec<u8>, store: Arc<Drawer>) -> anyhow::Result<()> {
    let sk = scoped(&member.tenant_id, &member.user_id, "pos.relay", &key)?;
    let fp = Fingerprint::of("pos.relay", &raw);
    store.try_claim(sk.storage_key(), &fp).await?;
    let releaser = Arc::clone(&store);
    let storage_key = sk.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move { releaser.release(&storage_key).await.ok() });
    });
    let ticket = crate::pos::forward(&raw).await?;
    store.complete(sk.storage_key(), &ticket).await?;
    guard.complete();
    Ok(())
}
