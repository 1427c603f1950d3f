//! Bay plans (BAPLIE). Lines upload them over HTTPS with a client key, or
//! send them over the EDI VAN; VAN messages arrive on a tideway queue.

use ballast::hold::Hold;
use hawser::extract::{RawBody, Shared};
use hawser::pass::LineCred;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use tideway::{Consumer, Delivery};

pub struct BayPlans {
    pub replies: Hold,
    pub interchanges: Hold,
    pub stowage: stowage::Planner,
}

fn segment<'a>(msg: &'a str, tag: &str) -> Option<&'a str> {
    msg.split('\'').map(str::trim).find(|seg| seg.starts_with(tag))
}

fn message_ref(msg: &str) -> Option<&str> {
    segment(msg, "UNH+").and_then(|seg| seg.split('+').nth(1))
}

fn interchange_ref(msg: &str) -> Option<&str> {
    segment(msg, "UNB+").and_then(|seg| seg.split('+').nth(5))
}

pub async fn upload(bp: Shared<BayPlans>, line: LineCred, call: Call, RawBody(raw): RawBody) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&line.org_id, &line.api_key_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = bp.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let text = std::str::from_utf8(&raw).map_err(Snag::bad_request)?;
    let plan = bp.stowage.load_baplie(text).await?;
    let answer = Answer::json(Status::ACCEPTED, &plan);
    bp.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn van_consumer(bp: &BayPlans, mut q: Consumer) -> anyhow::Result<()> {
    while let Some(d) = q.next().await {
        if let Err(e) = handle(bp, &d).await {
            log::warn!("BAPLIE delivery {} failed: {e:#}", d.id());
            d.nack().await?;
            continue;
        }
        d.ack().await?;
    }
    Ok(())
}

async fn handle(bp: &BayPlans, d: &Delivery) -> anyhow::Result<()> {
    let text = std::str::from_utf8(d.body())?;
    let org_id = d.header("x-van-partner").ok_or_else(|| anyhow::anyhow!("no partner"))?;

    if let Some(icr) = interchange_ref(text) {
        let seen = bp.interchanges.set_nx(&format!("{org_id}/{icr}"), b"1", std::time::Duration::from_secs(7 * 86_400)).await?;
        if !seen {
            return Ok(());
        }
    }
    let unh = message_ref(text).ok_or_else(|| anyhow::anyhow!("no UNH"))?;
    let key = scoped(org_id, "edi-van", "/v1/bayplans", unh)?;
    if bp.replies.exists(key.storage_key()).await? {
        return Ok(());
    }
    let plan = bp.stowage.load_baplie(text).await?;
    bp.replies.put(key.storage_key(), &serde_json::to_vec(&plan)?).await?;
    Ok(())
}
