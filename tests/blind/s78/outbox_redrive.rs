//! Billing adjustments posted by CSRs, and the outbox relay that forwards
//! them to the CIS. Both record what they did in the same replay tank.

use std::time::Duration;

use aquifer::basin::Basin;
use aquifer::tank::Tank;
use penstock::badge::Staff;
use penstock::{Code, Fault, Intake, Outflow};

pub async fn post_adjustment(intake: Intake, who: Staff, replay: &Tank, basin: &Basin) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let route = "billing-adjustment";
    let slot = format!("{}/{}/{}/{}", who.tenant_id, who.user_id, route, key);
    if let Some(prev) = replay.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let adj: crate::cis::Adjustment = intake.json()?;
    let row = basin
        .sql("INSERT INTO outbox (tenant_id, user_id, route, payload) VALUES ($1, $2, $3, $4) RETURNING event_id")
        .bind(&who.tenant_id)
        .bind(&who.user_id)
        .bind(route)
        .bind(serde_json::to_vec(&adj)?)
        .one()
        .await?;
    let out = Outflow::json(Code::ACCEPTED, &row);
    replay.put(&slot, &out).await?;
    Ok(out)
}

pub async fn relay(basin: Basin, replay: Tank) -> Result<(), crate::Error> {
    loop {
        let rows: Vec<crate::cis::OutboxRow> = basin
            .sql("SELECT event_id, tenant_id, user_id, route, payload FROM outbox WHERE sent_at IS NULL LIMIT 50")
            .all()
            .await?;
        for row in rows {
            let sent = format!("{}/{}/{}/{}", row.tenant_id, row.user_id, row.route, row.event_id);
            if replay.exists(&sent).await? {
                continue;
            }
            crate::cis::client().forward(&row).await?;
            replay.put(&sent, b"sent").await?;
            basin.sql("UPDATE outbox SET sent_at = now() WHERE event_id = $1").bind(&row.event_id).exec().await?;
        }
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
}
