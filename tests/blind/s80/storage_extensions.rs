//! Free-time (storage) extension requests for import containers, sent from
//! the consignee portal as classic form posts.

use ballast::hold::Hold;
use hawser::extract::{RawBody, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ExtensionForm {
    pub container_no: String,
    pub extra_days: u8,
    pub reason: String,
}

pub struct FreeTime {
    pub replies: Hold,
    pub tariff: tariff::Engine,
}

pub async fn request_extension(ft: Shared<FreeTime>, agent: Agent, call: Call, RawBody(raw): RawBody) -> Result<Answer, Snag> {
    let form: ExtensionForm = serde_urlencoded::from_bytes(&raw).map_err(Snag::bad_request)?;
    let route = call.route_template();
    let Agent { account_id, user_id, .. } = &agent;

    let slot = match call.header("Idempotency-Key") {
        Some(k) => {
            let sk = scoped(account_id, user_id, route, k).map_err(Snag::bad_request)?;
            format!("{}#ext", sk.storage_key())
        }
        None => {
            let crc = crc32fast::hash(&raw);
            format!("{}/{}/{}/{:08x}", account_id, user_id, route, crc)
        }
    };

    if let Some(prev) = ft.replies.get(&slot).await? {
        return Ok(Answer::replay(prev));
    }
    let quote = ft.tariff.extend_free_time(&form.container_no, form.extra_days, &form.reason).await?;
    let answer = Answer::json(Status::OK, &quote);
    ft.replies.put(&slot, &answer.to_bytes()).await?;
    Ok(answer)
}
