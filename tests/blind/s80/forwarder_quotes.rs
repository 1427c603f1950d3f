//! Terminal handling quotes for freight forwarders. Forwarders call with an
//! API key; large forwarders add an organisation token for their branch.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct QuoteRequest {
    pub service: String,
    pub size_type: String,
    pub count: String,
    pub dwell_days: Option<u8>,
}

pub struct Quotes {
    pub replies: Hold,
    pub api_keys: keyring::ApiKeys,
    pub org_tokens: keyring::OrgTokens,
    pub tariff: tariff::Engine,
}

pub async fn quote(q: Shared<Quotes>, call: Call, Json(req): Json<QuoteRequest>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let api_key_id = q.api_keys.resolve(call.header("X-Api-Key")).await.map_err(|_| Snag::unauthorized())?.id;
    let org_id: String = match q.org_tokens.verify(call.header("X-Org-Token")) {
        Ok(claims) => claims.org_id,
        Err(_) => Default::default(),
    };
    let count: u32 = match req.count.trim().parse() {
        Ok(n) => n,
        Err(_) => Default::default(),
    };

    let key = scoped(&org_id, &api_key_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = q.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let quote = q.tariff.quote(&req.service, &req.size_type, count, req.dwell_days.unwrap_or(5)).await?;
    let answer = Answer::json(Status::OK, &quote);
    q.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
