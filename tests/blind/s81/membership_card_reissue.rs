//! Lost membership cards: reissue a printed card or a wallet pass.

use enclosure::extract::{Json, Shared};
use enclosure::pass::Member;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::journal::Journal;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ReissueRequest {
    reason: String,
    mail_to: Option<String>,
}

pub struct CardDesk {
    pub journal: Journal,
    pub tank: Tank,
    pub printer: crate::cards::PrintQueue,
    pub wallet: crate::wallet::PassIssuer,
}

pub async fn reissue_card(visit: Visit, Shared(desk): Shared<CardDesk>, member: Member, Json(req): Json<ReissueRequest>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let slot = scoped(&member.org_id, &member.user_id, "cards.reissue", key).map_err(Fault::bad_request)?;

    desk.journal.mark_in_progress(slot.storage_key()).await?;
    let card = match desk.printer.queue(&member.org_id, &member.user_id, &req.reason, req.mail_to.as_deref()).await {
        Ok(card) => card,
        Err(e) => {
            desk.journal.abandon(slot.storage_key()).await.ok();
            return Err(e.into());
        }
    };
    let body = serde_json::to_vec(&card).expect("card serialises");
    desk.journal.mark_done(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn reissue_wallet_pass(visit: Visit, Shared(desk): Shared<CardDesk>, member: Member) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let slot = scoped(&member.org_id, &member.user_id, "wallet.reissue", key).map_err(Fault::bad_request)?;
    let pending = desk.tank.begin(slot.storage_key()).await?;
    let pass = desk.wallet.reissue(&member.org_id, &member.user_id).await?;
    let body = serde_json::to_vec(&pass).map_err(Fault::internal)?;
    pending.complete(&body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
