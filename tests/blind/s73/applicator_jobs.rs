//! Custom applicators (partner spray/spread businesses) accept jobs posted
//! by the co-op. Partner client ids come from the partner registry and some
//! legacy ones were issued with record-separator padding.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::PartnerLink;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem, ScopeError};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Accept {
    pub job_id: String,
    pub rig: String,
}

pub struct Jobs {
    pub crock: Crock,
    pub board: ApplicationBoard,
}

pub async fn accept_job(p: Petition, Shared(j): Shared<Jobs>, partner: PartnerLink, Json(a): Json<Accept>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let client_id = partner.client_id.trim_matches(|c| c == '\u{1e}' || c == '|');
    let key = match scoped(&partner.org_id, client_id, "applicator_accept", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = j.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let accepted = match j.board.accept(&a.job_id, client_id, &a.rig).await {
        Ok(x) => x,
        Err(e) => return Ruling::with(StatusLine::CONFLICT).text(&e.to_string()),
    };
    let body = furrow::codec::to_vec(&accepted).unwrap_or_default();
    let _ = j.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}

pub async fn complete_job(p: Petition, Shared(j): Shared<Jobs>, partner: PartnerLink, Json(a): Json<Accept>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    if partner.client_id.contains(['\u{1e}', '|', ':']) {
        return Ruling::problem(Problem::invalid_key(&ScopeError::ContainsSeparator(idem_scope::Component::Principal).to_string()));
    }
    let key = match scoped(&partner.org_id, &partner.client_id, "applicator_complete", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let rig = a.rig.trim_matches('"');
    let done = j.board.complete(&a.job_id, &partner.client_id, rig).await;
    let body = furrow::codec::to_vec(&done).unwrap_or_default();
    let _ = j.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
