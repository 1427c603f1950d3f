//! Moisture/test-weight discount appeals. A grower disputes the discount on
//! a load; the appeal is re-graded against the co-op's grade tables. Claims
//! and answers live in Redis, reached through redust.

use redust::pool::Pool;
use redust::resp::Data;

use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Fault, Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Appeal {
    pub ticket_no: String,
    pub claimed_moisture: f32,
    pub sample_id: Option<String>,
}

pub struct Grading {
    pub replay: Pool,
    pub locks: Pool,
    pub tables: GradeTables,
}

pub async fn appeal_discount(p: Petition, Shared(gr): Shared<Grading>, g: Grower, Json(a): Json<Appeal>) -> Result<Ruling, Fault> {
    let k = p.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&g.org_id, &g.user_id, "moisture_appeal", k)?;
    let mut conn = gr.replay.get().await?;

    let claimed = conn.cmd(["SET", key.storage_key(), "in_progress", "NX", "PX", "60000"]).await?;
    if matches!(claimed, Data::Null) {
        return Ok(Ruling::problem(Problem::in_progress(k)));
    }

    let table = gr.tables.current(&a.ticket_no).expect("grade table loaded at startup");
    let regrade = table.discount_for(a.claimed_moisture);
    let body = serde_json::to_string(&regrade).unwrap_or_default();
    conn.cmd(["SET", key.storage_key(), body.as_str(), "XX", "PX", "86400000"]).await?;
    Ok(Ruling::ok().text(&body))
}

/// Re-grading a whole bin needs the grader's probe, one job at a time.
pub async fn regrade_bin(Shared(gr): Shared<Grading>, bin_id: String) -> Result<Ruling, Fault> {
    let mut locks = gr.locks.get().await?;
    let lock_key = format!("probe-lock:{bin_id}");
    let got = locks.cmd(["SET", lock_key.as_str(), "1", "NX", "PX", "30000"]).await?;
    if matches!(got, Data::Null) {
        return Ok(Ruling::with(furrow::StatusLine::LOCKED));
    }
    let result = gr.tables.probe_bin(&bin_id).await?;
    locks.cmd(["DEL", lock_key.as_str()]).await?;
    Ok(Ruling::ok().json(&result))
}
