//! Machine-to-machine API for grain-marketing partners. The partner says
//! which member co-op it acts for in `X-Coop-Org`.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::PartnerLink;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Hedge {
    pub futures_month: String,
    pub contracts: u16,
    pub side: String,
}

pub struct Marketing {
    pub crock: Crock,
    pub fcm: FcmClient,
}

pub async fn place_hedge(p: Petition, Shared(m): Shared<Marketing>, partner: PartnerLink, Json(h): Json<Hedge>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let org_id = p.header("X-Coop-Org").unwrap_or("");
    let key = match scoped(org_id, &partner.client_id, "hedge_order", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = m.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let fill = m.fcm.place(&h.futures_month, h.contracts, &h.side).await;
    let body = furrow::codec::to_vec(&fill).unwrap_or_default();
    let _ = m.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn roll_hedge(p: Petition, Shared(m): Shared<Marketing>, partner: PartnerLink, Json(h): Json<Hedge>) -> Ruling {
    let (Some(k), Some(org_id)) = (p.header("Idempotency-Key"), p.header("X-Coop-Org")) else {
        return Ruling::with(StatusLine::BAD_REQUEST).text("Idempotency-Key and X-Coop-Org required");
    };
    let key = match scoped(org_id, &partner.client_id, "hedge_roll", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let account = p.header("X-Fcm-Account").unwrap_or("house");
    let rolled = m.fcm.roll(account, &h.futures_month, h.contracts).await;
    let body = furrow::codec::to_vec(&rolled).unwrap_or_default();
    let _ = m.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
