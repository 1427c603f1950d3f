//! Nightly loyalty accrual batches; members can also trigger an accrual by hand.
use coffer::drawer::SyncDrawer;
use idem_scope::{scoped, scoped_server};
use lantern::sync::{Verdict, Visit};
use timeflake_rs::Timeflake;

pub fn manual_accrual(visit: &Visit, replays: &SyncDrawer) -> Verdict {
    let Some(m) = visit.member() else {
        return Verdict::unauthorized();
    };
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key");
    };
    let Ok(sk) = scoped(&m.tenant_id, &m.user_id, "loyalty.accrue", key) else {
        return Verdict::bad_request("key");
    };
    replays.put(sk.storage_key(), b"accrued");
    Verdict::accepted()
}

pub fn nightly(replays: &SyncDrawer, tenant_id: &str, members: &[String]) -> anyhow::Result<()> {
    let batch = Timeflake::random()?;
    let batch_id = batch.to_string();
    tracing::info!(%batch_id, members = members.len(), "accrual batch");
    for user_id in members {
        let sk = scoped(tenant_id, user_id, "loyalty.accrue", &batch_id)?;
        replays.put(sk.storage_key(), b"accrued");
        let audit = scoped_server(tenant_id, user_id, "loyalty.accrue.audit", &batch_id)?;
        replays.put(audit.storage_key(), b"audited");
    }
    Ok(())
}
