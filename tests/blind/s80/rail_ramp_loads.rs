//! Rail ramp: load lists for outbound trains and wagon swaps, posted by the
//! rail operator's planners (staff SSO accounts).

use ballast::logbook::Logbook;
use hawser::extract::{Json, Shared};
use hawser::header::HeaderName;
use hawser::pass::Staff;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

const IDEM: HeaderName = HeaderName::from_static("idempotency-key");

#[derive(Deserialize)]
pub struct LoadRequest {
    pub train_no: String,
    pub wagon_no: String,
    pub containers: Vec<String>,
}

#[derive(Deserialize)]
pub struct WagonSwap {
    pub train_no: String,
    pub from_wagon: String,
    pub to_wagon: String,
}

pub struct Ramp {
    pub logbook: Logbook,
    pub plans: rail_plan::Plans,
}

fn client_key<'c>(call: &'c Call) -> Result<&'c str, Snag> {
    call.header_str(&IDEM).ok_or_else(Snag::missing_key)
}

pub async fn load_wagon(r: Shared<Ramp>, staff: Staff, call: Call, Json(req): Json<LoadRequest>) -> Result<Answer, Snag> {
    let key = scoped(&staff.org_id, &staff.sub, call.route_template(), client_key(&call)?).map_err(Snag::bad_request)?;
    if let Some(done) = r.logbook.outcome(key.storage_key()).await? {
        return Ok(Answer::replay(done));
    }
    r.logbook.mark_in_progress(key.storage_key()).await?;

    let plan = r.plans.for_train(&req.train_no).await?;
    let wagon = plan.wagons.iter().find(|w| w.no == req.wagon_no).expect("wagon is on the plan");
    let loaded = r.plans.load(&req.train_no, &wagon.no, &req.containers).await?;

    let answer = Answer::json(Status::OK, &loaded);
    r.logbook.mark_done(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn swap_wagon(r: Shared<Ramp>, staff: Staff, call: Call, Json(req): Json<WagonSwap>) -> Result<Answer, Snag> {
    let key = scoped(&staff.org_id, &staff.sub, call.route_template(), client_key(&call)?).map_err(Snag::bad_request)?;
    if let Some(done) = r.logbook.outcome(key.storage_key()).await? {
        return Ok(Answer::replay(done));
    }
    r.logbook.mark_in_progress(key.storage_key()).await?;

    let work = async {
        let plan = r.plans.for_train(&req.train_no).await?;
        plan.ensure_wagon(&req.to_wagon)?;
        r.plans.swap(&req.train_no, &req.from_wagon, &req.to_wagon).await
    };
    match work.await {
        Ok(swapped) => {
            let answer = Answer::json(Status::OK, &swapped);
            r.logbook.mark_done(key.storage_key(), &answer.to_bytes()).await?;
            Ok(answer)
        }
        Err(e) => {
            r.logbook.abandon(key.storage_key()).await?;
            Err(Snag::unprocessable(e.to_string()))
        }
    }
}
