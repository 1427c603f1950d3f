//! Amendments to forward grain contracts (quantity, delivery window). An
//! amendment is priced against the board, so a duplicate would move the
//! grower's position twice.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Fingerprint, Problem};
use serde::Deserialize;

#[derive(Deserialize, Debug)]
pub struct Amendment {
    pub contract_no: String,
    pub new_bushels: Option<u32>,
    pub new_window: Option<(String, String)>,
}

pub struct Desk {
    pub replay: Crock,
    pub pricing: PricingClient,
}

const OPERATION: &str = "contract_amend";

pub async fn amend(p: Petition, Shared(desk): Shared<Desk>, g: Grower, Json(a): Json<Amendment>) -> Ruling {
    let Some(key) = p.header("idempotency-key").map(str::to_owned) else {
        return Ruling::problem(Problem::missing_key());
    };

    // one string per request, readable in the replay dashboard
    let replay_id = format!("{:?}", (&g.org_id, &g.user_id, OPERATION, &key));
    let fp = Fingerprint::of(OPERATION, p.body());

    if let Ok(Some(rec)) = desk.replay.get(&replay_id).await {
        return Ruling::ok().bytes(rec);
    }

    let quote = match desk.pricing.requote(&a.contract_no, a.new_bushels).await {
        Ok(q) => q,
        Err(e) => {
            let why = format!("requote failed for {:?} under key {}", a, key);
            return Ruling::with(StatusLine::BAD_GATEWAY).text(&why);
        }
    };

    let body = furrow::codec::to_vec(&quote).unwrap_or_default();
    let _ = desk.replay.put(&replay_id, body.clone()).await;
    let _ = desk.replay.pin_fingerprint(&replay_id, fp.as_bytes()).await;
    Ruling::ok().bytes(body)
}

/// Read-only: show the amendment a key produced. Scoped the proper way.
pub async fn amendment_status(p: Petition, Shared(desk): Shared<Desk>, g: Grower) -> Ruling {
    let Some(key) = p.header("idempotency-key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let scope = match scoped(&g.org_id, &g.user_id, OPERATION, key) {
        Ok(s) => s,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let lookup = format!("status/{}", scope.storage_key());
    match desk.replay.get(&lookup).await {
        Ok(Some(b)) => Ruling::ok().bytes(b),
        _ => Ruling::with(StatusLine::NOT_FOUND),
    }
}
