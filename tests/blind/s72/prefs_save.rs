//! Saving notification preferences. Guests may save preferences on shared
//! kiosks, which is why the member is optional here.

use granary::silo::Silo;
use idem_scope::{scoped, Problem};
use portcullis::who::MaybeMember;
use portcullis::{Call, Reply, Status};

pub async fn save(silo: &Silo, call: Call) -> Reply {
    let maybe = call.ext::<MaybeMember>();
    let org = maybe.and_then(|m| m.0.as_ref()).map(|m| m.org_id.clone()).unwrap_or_else(|| "shared".into());
    let Some(user) = maybe.and_then(|m| m.0.as_ref()).map(|m| m.user_id.clone()) else {
        return Reply::status(Status::Unauthorized);
    };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    let page_size: usize = call.query("page_size").and_then(|v| v.parse().ok()).unwrap_or(50);
    let locale = call.header("accept-language").unwrap_or("en");
    let key = match scoped(&org, &user, "prefs.save", k) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::prefs::save(&user, locale, page_size, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
