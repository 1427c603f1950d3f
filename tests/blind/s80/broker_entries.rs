//! Customs entry lodgement by brokers (import declarations for containers
//! discharged at the terminal).

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Broker;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::Problem;
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct ReplyKey<'a> {
    account_id: &'a str,
    user_id: &'a str,
    key: &'a str,
}

#[derive(Serialize)]
struct EntryRef<'a> {
    account_id: &'a str,
    entry_no: &'a str,
}

#[derive(Deserialize)]
pub struct Lodgement {
    pub entry_no: String,
    pub containers: Vec<String>,
    pub hs_codes: Vec<String>,
    pub declared_value_minor: i64,
}

pub struct EntryDesk {
    pub replies: Hold,
    pub entries: Hold,
    pub customs: customs_bridge::Lodger,
}

pub async fn lodge(desk: Shared<EntryDesk>, b: Broker, call: Call, Json(l): Json<Lodgement>) -> Result<Answer, Snag> {
    let key = call
        .header("Idempotency-Key")
        .ok_or_else(|| Snag::problem(Problem::missing_key()))?
        .to_owned();

    let slot = serde_json::to_vec(&ReplyKey { account_id: &b.account_id, user_id: &b.user_id, key: &key })?;
    if let Some(prev) = desk.replies.get(&slot).await? {
        return Ok(Answer::replay(prev));
    }

    let entry_ref = serde_json::to_vec(&EntryRef { account_id: &b.account_id, entry_no: &l.entry_no })?;
    if desk.entries.exists(&entry_ref).await? {
        return Err(Snag::conflict("entry already lodged"));
    }

    let lodged = desk.customs.lodge(&l.entry_no, &l.containers, &l.hs_codes, l.declared_value_minor).await?;
    desk.entries.put(&entry_ref, lodged.receipt.as_bytes()).await?;

    let answer = Answer::json(Status::CREATED, &lodged);
    desk.replies.put(&slot, &answer.to_bytes()).await?;
    Ok(answer)
}
