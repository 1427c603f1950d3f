//! Operating-loan draws forwarded to the ag lender. Members call the draw
//! endpoint with an Idempotency-Key; when the lender times out, the
//! background retrier re-submits with a fresh attempt id.

use std::time::Duration;

use bushel::crock::Crock;
use furrow::egress::{HeaderBag, Outbound};
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, Clone)]
pub struct Draw {
    pub loan_no: String,
    pub amount_cents: i64,
}

pub struct Lending {
    pub crock: Crock,
    pub lender: Outbound,
}

pub async fn draw(p: Petition, Shared(l): Shared<Lending>, g: Grower, Json(d): Json<Draw>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&g.org_id, &g.user_id, "loan_draw", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = l.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    match l.lender.post_json("/draws", &d, HeaderBag::new()).await {
        Ok(resp) => {
            let _ = l.crock.put(key.storage_key(), resp.body.clone()).await;
            Ruling::ok().bytes(resp.body)
        }
        Err(_) => {
            retry_later(l.clone(), g.clone(), d.clone());
            Ruling::accepted()
        }
    }
}

fn retry_later(l: Lending, g: Grower, d: Draw) {
    tokio::spawn(async move {
        for backoff in [5u64, 30, 120] {
            tokio::time::sleep(Duration::from_secs(backoff)).await;
            let attempt_id = scru64::new_string();
            let mut headers = HeaderBag::new();
            headers.insert("Idempotency-Key", &attempt_id);
            let Ok(resp) = l.lender.post_json("/draws", &d, headers).await else { continue };
            if let Ok(key) = scoped(&g.org_id, &g.user_id, "loan_draw", &attempt_id) {
                let _ = l.crock.put(key.storage_key(), resp.body).await;
            }
            break;
        }
    });
}
