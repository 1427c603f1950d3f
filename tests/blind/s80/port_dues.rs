//! Port dues payments. Registered agents pay from the portal; one-off payers
//! (small craft, yachts) pay through an e-mailed payment link.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::MaybeAgent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct DuesPayment {
    pub dues_invoice: String,
    pub amount_minor: i64,
    pub currency: Option<String>,
    pub card_token: String,
}

pub struct DuesDesk {
    pub replies: Hold,
    pub links: payer_links::Links,
    pub acquirer: acquirer::Client,
}

pub async fn pay_dues(desk: Shared<DuesDesk>, MaybeAgent(agent): MaybeAgent, call: Call, Json(p): Json<DuesPayment>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let link = call.query("link");

    let account_id = agent.as_ref().map(|a| a.account_id.clone()).unwrap_or_default();
    let user_id = match (&agent, link) {
        (Some(a), _) => a.user_id.clone(),
        (None, Some(token)) => desk.links.resolve(token).await?.payer_id,
        (None, None) => return Err(Snag::unauthorized()),
    };
    let currency = p.currency.clone().unwrap_or_else(|| "EUR".to_owned());

    let key = scoped(&account_id, &user_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = desk.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let charge = desk.acquirer.charge(&p.card_token, p.amount_minor, &currency, &p.dues_invoice).await?;
    let answer = Answer::json(Status::OK, &charge);
    desk.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
