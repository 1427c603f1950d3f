//! Master invoices for group blocks, with an in_progress row as the claim.
use coffer::sql::Pool;
use idem_scope::scoped;
use lantern::who::Member;
use lantern::{Verdict, Visit};

pub async fn issue_master(visit: Visit, m: Member, pool: &Pool) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key");
    };
    match issue(pool, &m, key).await {
        Ok(id) => Verdict::ok(id),
        Err(e) => Verdict::bad_request(&e.to_string()),
    }
}

async fn issue(pool: &Pool, m: &Member, key: &str) -> anyhow::Result<String> {
    let sk = scoped(&m.tenant_id, &m.user_id, "group.invoice", key)?;
    let c = sk.columns();
    pool.query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES ($1, $2, $3, $4, $5, $6, 'in_progress')")
        .bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key)
        .execute()
        .await?;
    let invoice_id = crate::ar::master_invoice(&m.tenant_id).await?;
    pool.query("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
        .bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).bind(&invoice_id)
        .execute()
        .await?;
    Ok(invoice_id)
}

pub async fn reprice(pool: &Pool, block_id: i64) -> anyhow::Result<()> {
    let tx = pool.begin().await?;
    let rate = crate::ar::block_rate(block_id).await?;
    tx.query("UPDATE group_blocks SET rate = $1 WHERE id = $2").bind(rate).bind(block_id).execute().await?;
    tx.commit().await?;
    Ok(())
}
