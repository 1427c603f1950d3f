use idem_scope::Fingerprint;
use ntex::http::header::HeaderName;
use ntex::util::Bytes;
use ntex::web::{self, types::State, HttpRequest, HttpResponse};
use serde::Serialize;
use tikv_client::RawClient;

pub static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

pub struct AppState {
    pub tikv: RawClient,
}

#[derive(Serialize)]
struct Entry<'a> {
    fingerprint: String,
    status: u16,
    body: &'a str,
}

struct Principal {
    merchant_id: String,
    api_key_id: String,
}

fn principal(req: &HttpRequest) -> Option<Principal> {
    let ext = req.extensions();
    let p = ext.get::<(String, String)>()?;
    Some(Principal { merchant_id: p.0.clone(), api_key_id: p.1.clone() })
}

#[web::post("/v1/charges")]
pub async fn charge(req: HttpRequest, body: Bytes, st: State<AppState>) -> HttpResponse {
    let Some(who) = principal(&req) else {
        return HttpResponse::Unauthorized().finish();
    };
    let client_key = match req.headers().get(&IDEMPOTENCY_KEY).and_then(|v| v.to_str().ok()) {
        Some(v) if !v.is_empty() => v.to_owned(),
        _ => return HttpResponse::BadRequest().finish(),
    };
    let operation = "/v1/charges";
    let store_key = who.merchant_id.clone() + "\u{1e}" + &who.api_key_id + "\u{1e}" + operation + "\u{1e}" + &client_key;

    let fp = Fingerprint::of(operation, &body);
    if let Ok(Some(existing)) = st.tikv.get(store_key.clone()).await {
        return HttpResponse::Ok().body(existing);
    }
    let out = "{\"charged\":true}";
    let entry = Entry { fingerprint: hex::encode(fp.as_bytes()), status: 201, body: out };
    let value = serde_json::to_vec(&entry).unwrap_or_default();
    let _ = st.tikv.put(store_key, value).await;
    HttpResponse::Created().body(out)
}
