//! Printed statement requests (patronage, settlement history) mailed to the
//! member. The route is open to signed-in growers and to the lobby tablet,
//! where the member only types a member number.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::MaybeGrower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct StatementReq {
    pub member_no: String,
    pub years: Vec<u16>,
    pub format: Option<String>,
    pub note: Option<String>,
}

pub struct Mailroom {
    pub crock: Crock,
    pub members: MemberDirectory,
    pub printer: StatementPrinter,
}

pub async fn request_statement(p: Petition, Shared(m): Shared<Mailroom>, who: MaybeGrower, Json(req): Json<StatementReq>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let org_id = who.0.as_ref().map(|g| g.org_id.clone()).unwrap_or_default();
    let Some(user_id) = m.members.user_for(&req.member_no).await else {
        return Ruling::with(StatusLine::NOT_FOUND).text("unknown member number");
    };
    let format = req.format.clone().unwrap_or_default();
    let note = req.note.as_deref().unwrap_or("");
    let key = match scoped(&org_id, &user_id, "statement_request", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = m.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let job = m.printer.queue(&user_id, &req.years, &format, note).await;
    let body = furrow::codec::to_vec(&job).unwrap_or_default();
    let _ = m.crock.put(key.storage_key(), body.clone()).await;
    Ruling::accepted().bytes(body)
}

pub async fn cancel_statement(p: Petition, Shared(m): Shared<Mailroom>, who: MaybeGrower) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let Some(g) = who.0 else {
        return Ruling::with(StatusLine::UNAUTHORIZED);
    };
    let key = match scoped(&g.org_id, &g.user_id, "statement_cancel", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let _ = m.printer.cancel_latest(&g.user_id).await;
    let _ = m.crock.put(key.storage_key(), b"cancelled".to_vec()).await;
    Ruling::ok()
}
