//! Arrival notices. Agents file them through the API; when an agent has not
//! filed one, the AIS feed files it for them once the vessel enters the
//! port limits. Both paths answer from the same reply store.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use nmea_parser::{NmeaParser, ParsedMessage};
use serde::Deserialize;
use tideway::Consumer;

#[derive(Deserialize)]
pub struct ArrivalNotice {
    pub call_ref: String,
    pub ata: jiff::Timestamp,
    pub draught_m: f32,
}

pub struct Arrivals {
    pub arrivals: Hold,
    pub ais_seen: Hold,
    pub calls: call_core::Calls,
    pub limits: geo_fence::Fence,
}

pub async fn submit_arrival(desk: Shared<Arrivals>, agent: Agent, call: Call, Json(n): Json<ArrivalNotice>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&agent.account_id, &agent.user_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = desk.arrivals.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let filed = desk.calls.file_arrival(&n.call_ref, n.ata, n.draught_m).await?;
    let answer = Answer::json(Status::CREATED, &filed);
    desk.arrivals.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn ais_loop(desk: &Arrivals, mut feed: Consumer) -> anyhow::Result<()> {
    let mut parser = NmeaParser::new();
    while let Some(d) = feed.next().await {
        let sentence = std::str::from_utf8(d.body())?;
        match parser.parse_sentence(sentence) {
            Ok(ParsedMessage::VesselDynamicData(vdd)) => {
                let (Some(lat), Some(lon)) = (vdd.latitude, vdd.longitude) else {
                    d.ack().await?;
                    continue;
                };
                if !desk.limits.contains(lat, lon) {
                    d.ack().await?;
                    continue;
                }
                if let Some(call) = desk.calls.expected_by_mmsi(vdd.mmsi).await? {
                    let key = scoped(&call.account_id, "ais-ingest", "/v1/arrivals", d.id())?;
                    if !desk.arrivals.exists(key.storage_key()).await? {
                        let filed = desk.calls.file_arrival(&call.call_ref, jiff::Timestamp::now(), 0.0).await?;
                        desk.arrivals.put(key.storage_key(), &serde_json::to_vec(&filed)?).await?;
                    }
                }
            }
            Ok(ParsedMessage::VesselStaticData(vsd)) => {
                let seen = format!("{}:{}", vsd.mmsi, d.id());
                if desk.ais_seen.set_nx(&seen, b"1", std::time::Duration::from_secs(3600)).await? {
                    desk.calls.update_static(vsd.mmsi, vsd.name.as_deref(), vsd.call_sign.as_deref()).await?;
                }
            }
            Ok(_) | Err(_) => {}
        }
        d.ack().await?;
    }
    Ok(())
}
