//! Statement archive requests: the archive is written to disk, the request
//! is deduplicated in the silo.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

fn clean(s: &str) -> String {
    s.replace('|', "")
}

fn clean_filename(s: &str) -> String {
    s.replace('/', "_")
}

pub async fn archive(silo: &Silo, m: &Member, call: Call) -> Reply {
    let tenant = clean(&m.org_id);
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Some(title) = call.query("title") else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(&tenant, &m.user_id, "statements.archive", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let path = std::path::Path::new("/var/archive").join(clean_filename(title));
    let out = crate::statements::archive(&tenant, &path).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
