use idem_scope::scoped;
use ntex::web::{self, types::Json, types::State, HttpRequest, HttpResponse};
use serde::Deserialize;
use tikv_client::RawClient;

const GUEST_PRINCIPAL: &str = "guest";

pub struct BatchDeps {
    pub tikv: RawClient,
}

#[derive(Deserialize)]
pub struct Upload {
    pub rows: Vec<String>,
}

pub struct Session {
    pub team_id: String,
    pub user_id: Option<String>,
}

impl Session {
    fn from_req(req: &HttpRequest) -> Option<Session> {
        let h = req.headers();
        let team_id = h.get("x-team-id")?.to_str().ok()?.to_owned();
        let user_id = h.get("x-user-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
        Some(Session { team_id, user_id })
    }
}

#[web::post("/v1/imports")]
pub async fn import(req: HttpRequest, st: State<BatchDeps>, body: Json<Upload>) -> HttpResponse {
    let Some(session) = Session::from_req(&req) else {
        return HttpResponse::Unauthorized().finish();
    };
    let principal = if let Some(uid) = session.user_id.as_ref() {
        uid.clone()
    } else {
        GUEST_PRINCIPAL.to_string()
    };
    let Some(key) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return HttpResponse::BadRequest().finish();
    };
    let Ok(sk) = scoped(&session.team_id, &principal, "imports.create", key) else {
        return HttpResponse::BadRequest().finish();
    };
    let _ = st.tikv.put(sk.storage_key().to_owned(), body.rows.len().to_string().into_bytes()).await;
    HttpResponse::Accepted().finish()
}

#[web::post("/v1/imports/rows")]
pub async fn import_rows(req: HttpRequest, st: State<BatchDeps>, body: Json<Upload>) -> HttpResponse {
    let Some(session) = Session::from_req(&req) else {
        return HttpResponse::Unauthorized().finish();
    };
    let Some(uid) = session.user_id.clone() else {
        return HttpResponse::Unauthorized().finish();
    };
    let Some(key) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return HttpResponse::BadRequest().finish();
    };
    let team = session.team_id.replacen('#', "", 1);
    let Ok(sk) = scoped(&team, &uid, "imports.rows", key) else {
        return HttpResponse::BadRequest().finish();
    };
    let first = body.rows.first().map(|r| r.trim_end_matches('\n')).unwrap_or_default();
    let _ = st.tikv.put(sk.storage_key().to_owned(), first.as_bytes().to_vec()).await;
    HttpResponse::Accepted().finish()
}
