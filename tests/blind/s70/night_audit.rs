//! Night audit close-out: one request per property per business date.
use anyhow::ensure;
use coffer::tab::Tab;
use idem_scope::scoped;
use lantern::who::Operator;
use lantern::{Verdict, Visit};

pub async fn close_day(visit: Visit, op: Operator, tab: &Tab) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key");
    };
    match close(&op, key, visit.query("date").unwrap_or(""), tab).await {
        Ok(report) => Verdict::ok(report),
        Err(e) => Verdict::bad_request(&e.to_string()),
    }
}

async fn close(op: &Operator, key: &str, date: &str, tab: &Tab) -> anyhow::Result<Vec<u8>> {
    ensure!(!date.is_empty(), "business date required");
    let sk = scoped(&op.tenant_id, &op.user_id, "night_audit.close", key)?;
    tab.begin(sk.storage_key()).await?;
    let totals = crate::audit::totals(&op.tenant_id, date).await?;
    ensure!(totals.balanced(), "ledger out of balance for {date}");
    let report = totals.render();
    tab.mark_done(sk.storage_key(), &report).await?;
    Ok(report)
}

pub async fn close_checked(op: &Operator, key: &str, date: &str, tab: &Tab) -> anyhow::Result<Vec<u8>> {
    let sk = scoped(&op.tenant_id, &op.user_id, "night_audit.close", key)?;
    tab.begin(sk.storage_key()).await?;
    let totals = match crate::audit::totals(&op.tenant_id, date).await {
        Ok(t) => t,
        Err(e) => {
            tab.abandon(sk.storage_key()).await.ok();
            return Err(e.into());
        }
    };
    let report = totals.render();
    if let Err(e) = tab.mark_done(sk.storage_key(), &report).await {
        tab.abandon(sk.storage_key()).await.ok();
        return Err(e.into());
    }
    Ok(report)
}
