//! Harbour master: subscriptions to local notices to mariners and requests
//! for navigational warnings to be broadcast on VHF.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::{Mariner, Org};
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Subscription {
    pub areas: Vec<String>,
    pub channel: String,
    pub address: String,
    pub display_name: Option<String>,
}

pub struct HarbourMaster {
    pub replies: Hold,
    pub notices: notices::Registry,
}

pub async fn subscribe(hm: Shared<HarbourMaster>, call: Call, Json(sub): Json<Subscription>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let org_id = call.pass::<Org>().map(|o| o.org_id).ok_or_else(Snag::unauthorized)?;
    let user_id = match call.pass::<Mariner>() {
        Some(m) => m.user_id,
        None => "anonymous".to_owned(),
    };
    let display = sub.display_name.clone().unwrap_or_else(|| "Anonymous mariner".to_owned());

    let key = scoped(&org_id, &user_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = hm.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let created = hm.notices.subscribe(&sub.areas, &sub.channel, &sub.address, &display).await?;
    let answer = Answer::json(Status::CREATED, &created);
    hm.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
