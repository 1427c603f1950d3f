//! Form posts from the legacy web UI do not send a key; the server makes one
//! up so the same code path can be used.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use short_uuid::ShortUuid;

pub async fn submit_form(silo: &Silo, m: &Member, call: Call) -> Reply {
    let k = call
        .header("Idempotency-Key")
        .map(str::to_owned)
        .unwrap_or_else(|| ShortUuid::generate().to_string());
    let Ok(key) = scoped(&m.org_id, &m.user_id, "forms.submit", &k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let reference = ShortUuid::generate().to_string();
    let out = crate::forms::submit(&m.org_id, call.body(), &reference).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
