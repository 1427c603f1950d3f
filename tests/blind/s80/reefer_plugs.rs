//! Reefer plug-in / plug-out orders sent by shipping lines over the line API.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::LineCred;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::Problem;
use serde::Deserialize;

pub static IDEM_HEADER: hawser::header::HeaderName = hawser::header::HeaderName::from_static("idempotency-key");

#[derive(Deserialize)]
pub struct PlugOrder {
    pub container_no: String,
    pub setpoint_c: Option<f32>,
    pub humidity_pct: Option<u8>,
    pub vent_cmh: Option<u16>,
    pub plug: bool,
}

pub struct ReeferDesk {
    pub replies: Hold,
    pub monitors: reefer_net::Gateway,
}

fn normalise_container(raw: &str) -> String {
    raw.replace(' ', "").to_ascii_uppercase()
}

pub async fn plug_order(
    desk: Shared<ReeferDesk>,
    cred: LineCred,
    call: Call,
    Json(order): Json<PlugOrder>,
) -> Result<Answer, Snag> {
    let key = call
        .header_str(&IDEM_HEADER)
        .map(String::from)
        .ok_or_else(|| Snag::problem(Problem::missing_key()))?;
    let route = call.route_template();

    let cid = normalise_container(&order.container_no);
    let setpoint = order.setpoint_c.unwrap_or_default();
    let humidity = order.humidity_pct.unwrap_or(85);

    let reply_key = [cred.org_id.as_str(), cred.api_key_id.as_str(), route, key.as_str()].join("\x1e");
    if let Some(done) = desk.replies.get(&reply_key).await? {
        return Ok(Answer::replay(done));
    }

    let unit = desk.monitors.unit(&cid).await.map_err(|e| Snag::not_found(e.to_string()))?;
    let ack = if order.plug {
        unit.plug_in(setpoint, humidity, order.vent_cmh.unwrap_or(0)).await?
    } else {
        unit.plug_out().await?
    };

    let answer = Answer::json(Status::ACCEPTED, &ack);
    desk.replies.put(&reply_key, &answer.to_bytes()).await?;
    Ok(answer)
}
