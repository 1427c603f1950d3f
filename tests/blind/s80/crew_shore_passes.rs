//! Crew shore passes: the agent asks for shore leave for crew members; the
//! immigration check runs in the background and the pass list is mailed.

use std::time::Duration;

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, ClaimGuard};
use serde::Deserialize;

#[derive(Deserialize, Clone)]
pub struct PassRequest {
    pub call_ref: String,
    pub crew: Vec<String>,
    pub leave_from: jiff::Timestamp,
    pub leave_until: jiff::Timestamp,
}

#[derive(Deserialize)]
pub struct PassRevocation {
    pub pass_nos: Vec<String>,
}

#[derive(Clone)]
pub struct PassDesk {
    pub replies: Hold,
    pub immigration: immigration_api::Client,
    pub mailer: port_mail::Mailer,
}

pub async fn request_passes(desk: Shared<PassDesk>, a: Agent, call: Call, Json(req): Json<PassRequest>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&a.account_id, &a.user_id, call.route_template(), k).map_err(Snag::bad_request)?;
    let desk = desk.0.clone();
    let user = a.user_id.clone();

    tokio::spawn(async move {
        let outcome: Result<(), Snag> = async {
            desk.replies.claim(key.storage_key(), Duration::from_secs(900)).await?;
            let cleared = desk.immigration.clear(&req.call_ref, &req.crew, req.leave_from, req.leave_until).await?;
            desk.mailer.send_pass_list(&user, &cleared).await?;
            desk.replies.complete(key.storage_key(), &serde_json::to_vec(&cleared)?).await?;
            Ok(())
        }
        .await;
        if let Err(e) = outcome {
            log::error!("shore passes for {} failed: {e}", req.call_ref);
        }
    });

    Ok(Answer::status(Status::ACCEPTED))
}

pub async fn revoke_passes(desk: Shared<PassDesk>, a: Agent, call: Call, Json(rev): Json<PassRevocation>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&a.account_id, &a.user_id, call.route_template(), k).map_err(Snag::bad_request)?;

    desk.replies.claim(key.storage_key(), Duration::from_secs(120)).await?;
    let guard = ClaimGuard::new({
        let replies = desk.replies.clone();
        let key = key.clone();
        move || {
            tokio::spawn(async move {
                let _ = replies.release(key.storage_key()).await;
            });
        }
    });

    let revoked = desk.immigration.revoke(&rev.pass_nos).await?;
    let answer = Answer::json(Status::OK, &revoked);
    desk.replies.complete(key.storage_key(), &answer.to_bytes()).await?;
    guard.complete();
    Ok(answer)
}
