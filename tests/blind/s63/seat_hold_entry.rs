use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

use cistern::hold::Holds;
use idem_scope::Problem;
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;
use wherry::auth::Caller;
use wherry::extract::Json;
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct HoldReq {
    pub event_id: String,
    pub seat_ids: Vec<String>,
}

#[derive(Clone, Serialize)]
pub struct HoldOut {
    pub hold_id: String,
    pub expires_in_s: u32,
}

#[derive(Clone)]
enum Slot {
    Pending,
    Done(HoldOut),
}

pub struct SeatHolds {
    replies: Mutex<HashMap<String, Slot>>,
    holds: Arc<Holds>,
}

impl SeatHolds {
    pub async fn hold_seats(&self, ctx: Ctx, caller: Caller, Json(req): Json<HoldReq>) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
        tracing::info!(idempotency_key = %client_key, tenant = %caller.tenant_id, "seat hold requested");

        {
            let mut replies = self.replies.lock().await;
            match replies.entry(client_key.clone()) {
                Entry::Occupied(e) => {
                    return match e.get() {
                        Slot::Pending => Err(Problem::in_progress(&client_key)),
                        Slot::Done(out) => Ok(Reply::json(Status::OK, out).header("Idempotent-Replayed", "true")),
                    };
                }
                Entry::Vacant(v) => {
                    v.insert(Slot::Pending);
                }
            }
        }

        let mut held = Vec::with_capacity(req.seat_ids.len());
        for seat in &req.seat_ids {
            match self.holds.reserve(&req.event_id, seat).await {
                Ok(h) => held.push(h),
                Err(e) => {
                    for h in held {
                        self.holds.cancel(h).await;
                    }
                    self.replies.lock().await.remove(&client_key);
                    return Err(Problem::invalid_key(&e.to_string()));
                }
            }
        }
        let hold_id = self.holds.commit(&req.event_id, held).await;
        let out = HoldOut { hold_id, expires_in_s: 600 };
        self.replies.lock().await.insert(client_key, Slot::Done(out.clone()));
        Ok(Reply::json(Status::CREATED, &out))
    }
}
