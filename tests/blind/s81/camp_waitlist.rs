//! Camp waitlist promotion (staff action) and withdrawal (parent action).

use enclosure::extract::Shared;
use enclosure::pass::Staff;
use enclosure::{Fault, Reply, Status, Visit};
use lagoon::sql::{query, Db};

use crate::extractors::Caller;

const ROUTE: &str = "camps.waitlist.promote";

pub struct CampOffice {
    pub db: Db,
    pub waitlist: crate::camps::Waitlist,
}

pub async fn promote(visit: Visit, Shared(office): Shared<CampOffice>, staff: Staff) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let entry_id = visit.param("entry").ok_or_else(|| Fault::not_found("entry"))?;

    query("INSERT INTO camp_idempotency (org_id, user_id, route, idem_key, status) VALUES ($1, $2, $3, $4, 'in_progress')").bind(&staff.org_id).bind(&staff.sub).bind(ROUTE).bind(key).execute(&office.db).await?;
    let seat = office.waitlist.promote(&staff.org_id, entry_id).await?;
    let body = seat.to_bytes();
    query("UPDATE camp_idempotency SET status = 'completed', response = $5 WHERE org_id = $1 AND user_id = $2 AND route = $3 AND idem_key = $4")
        .bind(&staff.org_id)
        .bind(&staff.sub)
        .bind(ROUTE)
        .bind(key)
        .bind(&body)
        .execute(&office.db)
        .await?;
    Ok(Reply::bytes(Status::OK, body))
}

pub async fn withdraw(visit: Visit, Shared(office): Shared<CampOffice>, caller: Caller) -> Result<Reply, Fault> {
    let entry_id = visit.param("entry").ok_or_else(|| Fault::not_found("entry"))?;
    let mut tx = office.db.begin().await?;
    let entry = office.waitlist.load_for_update(&mut tx, &caller.org_id, entry_id).await?;
    if entry.user_id != caller.user_id {
        return Err(Fault::forbidden("not your waitlist entry"));
    }
    office.waitlist.remove(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Reply::empty(Status::NO_CONTENT))
}
