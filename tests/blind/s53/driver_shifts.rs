use std::sync::Arc;

use rocksdb::{OptimisticTransactionDB, Options};
use serde::{Deserialize, Serialize};

use crate::fleet::{Shift, ShiftPlanner};

const RS: &str = "\x1e";

#[derive(Deserialize)]
pub struct StartShiftCmd {
    pub depot_code: String,
    pub vehicle_reg: String,
}

#[derive(Serialize, Deserialize)]
pub struct ShiftStarted {
    pub shift_id: String,
    pub started_at: i64,
}

pub struct ShiftReplays {
    db: Arc<OptimisticTransactionDB>,
}

impl ShiftReplays {
    pub fn open(path: &str) -> anyhow::Result<Self> {
        let mut opts = Options::default();
        opts.create_if_missing(true);
        Ok(Self { db: Arc::new(OptimisticTransactionDB::open(&opts, path)?) })
    }
}

fn clean(component: &str) -> String {
    component.replace(RS, " ")
}

pub async fn start_shift(
    replays: &ShiftReplays,
    planner: &ShiftPlanner,
    account_id: &str,
    user_id: &str,
    headers: &http::HeaderMap,
    cmd: StartShiftCmd,
) -> anyhow::Result<ShiftStarted> {
    let client_key = headers
        .get("Idempotency-Key")
        .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?
        .to_str()?;
    let storage_key = [clean(account_id), clean(user_id), "shifts.start".to_owned(), client_key.to_owned()].join(RS);

    if let Some(raw) = replays.db.get(storage_key.as_bytes())? {
        return Ok(serde_json::from_slice(&raw)?);
    }
    let shift: Shift = planner.start(account_id, user_id, &cmd.depot_code, &cmd.vehicle_reg).await?;
    let started = ShiftStarted { shift_id: shift.id, started_at: shift.started_at };
    replays.db.put(storage_key.as_bytes(), serde_json::to_vec(&started)?)?;
    Ok(started)
}
