use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use etcd_client::Client;
use ntex::web::{self, types::Form, types::State, HttpRequest, HttpResponse};
use serde::Deserialize;
use tokio::sync::Mutex;

#[derive(Deserialize, Hash)]
pub struct ContactForm {
    pub email: String,
    pub subject: String,
    pub message: String,
}

pub struct FormDeps {
    pub etcd: Mutex<Client>,
}

struct DedupEntry {
    slot: String,
    ttl: i64,
}

fn entry_for(team_id: &str, user_id: &str, form: &ContactForm) -> DedupEntry {
    let mut hasher = DefaultHasher::new();
    form.hash(&mut hasher);
    let operation = "contact.submit";
    DedupEntry { slot: format!("/dedup/{}/{}/{}/{:x}", team_id, user_id, operation, hasher.finish()), ttl: 600 }
}

#[web::post("/v1/contact")]
pub async fn submit(req: HttpRequest, form: Form<ContactForm>, st: State<FormDeps>) -> HttpResponse {
    let h = req.headers();
    let (Some(team_id), Some(user_id)) = (h.get("x-team-id").and_then(|v| v.to_str().ok()), h.get("x-user-id").and_then(|v| v.to_str().ok())) else {
        return HttpResponse::Unauthorized().finish();
    };
    let entry = entry_for(team_id, user_id, &form);
    let mut etcd = st.etcd.lock().await;
    let Ok(lease) = etcd.lease_grant(entry.ttl, None).await else {
        return HttpResponse::BadGateway().finish();
    };
    match etcd.get(entry.slot.clone(), None).await {
        Ok(r) if r.count() > 0 => return HttpResponse::Ok().body("already received"),
        Ok(_) => {}
        Err(_) => return HttpResponse::BadGateway().finish(),
    }
    let _ = etcd.put(entry.slot, "1", Some(etcd_client::PutOptions::new().with_lease(lease.id()))).await;
    HttpResponse::Accepted().finish()
}
