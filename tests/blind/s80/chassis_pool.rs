//! Chassis pool: hauliers without own chassis request one from the pool for
//! an import pick-up. Assignment can race with other requests, so it retries.

use std::time::Duration;

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Haulier;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ChassisRequest {
    pub size: String,
    pub pickup_ref: String,
    pub axles: u8,
}

pub enum PoolError {
    Busy,
    NoneFree,
    Other(String),
}

pub struct ChassisDesk {
    pub replies: Hold,
    pub pool: chassis_pool_core::Pool,
}

pub async fn request_chassis(desk: Shared<ChassisDesk>, h: Haulier, call: Call, Json(req): Json<ChassisRequest>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&h.account_id, &h.client_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = desk.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }

    let mut attempt = 0u8;
    let answer = loop {
        attempt += 1;
        desk.replies.claim(key.storage_key(), Duration::from_secs(60)).await?;
        match desk.pool.assign(&req.size, req.axles, &req.pickup_ref).await {
            Ok(chassis) => {
                let answer = Answer::json(Status::OK, &chassis);
                desk.replies.complete(key.storage_key(), &answer.to_bytes()).await?;
                break answer;
            }
            Err(PoolError::Busy) if attempt < 3 => {
                desk.replies.release(key.storage_key()).await?;
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            Err(PoolError::Busy) | Err(PoolError::NoneFree) => break Answer::status(Status::SERVICE_UNAVAILABLE),
            Err(PoolError::Other(e)) => {
                desk.replies.release(key.storage_key()).await?;
                return Err(Snag::internal(e));
            }
        }
    };
    Ok(answer)
}
