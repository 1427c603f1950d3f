use hmac::{Hmac, Mac};
use idem_scope::scoped;
use memcache::Client;
use ntex::util::Bytes;
use ntex::web::{self, types::State, HttpRequest, HttpResponse};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

pub struct Signing {
    pub webhook_secret: Vec<u8>,
    pub dedup_secret: Vec<u8>,
    pub memc: Client,
}

fn verify_signature(secret: &[u8], body: &[u8], sig_hex: &str) -> bool {
    let Ok(mut mac) = HmacSha256::new_from_slice(secret) else {
        return false;
    };
    mac.update(body);
    match hex::decode(sig_hex) {
        Ok(sig) => mac.verify_slice(&sig).is_ok(),
        Err(_) => false,
    }
}

fn sealed(secret: &[u8], payload: &[u8]) -> String {
    let mut mac = HmacSha256::new_from_slice(secret).expect("hmac accepts any key length");
    mac.update(payload);
    hex::encode(mac.finalize().into_bytes())
}

#[web::post("/v1/partner/orders")]
pub async fn partner_order(req: HttpRequest, body: Bytes, st: State<Signing>) -> HttpResponse {
    let hdr = |n: &str| req.headers().get(n).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let Some(sig) = hdr("x-partner-signature") else {
        return HttpResponse::Unauthorized().finish();
    };
    if !verify_signature(&st.webhook_secret, &body, &sig) {
        return HttpResponse::Unauthorized().finish();
    }
    let (Some(merchant_id), Some(caller_id)) = (hdr("x-merchant-id"), hdr("x-caller-id")) else {
        return HttpResponse::Unauthorized().finish();
    };
    let seal = sealed(&st.dedup_secret, &body);
    let Ok(sk) = scoped(&merchant_id, &caller_id, "partner.orders", &seal) else {
        return HttpResponse::BadRequest().finish();
    };
    if let Ok(Some(prev)) = st.memc.get::<String>(sk.storage_key()) {
        return HttpResponse::Ok().body(prev);
    }
    let out = "{\"accepted\":true}";
    let _ = st.memc.set(sk.storage_key(), out, 86_400);
    HttpResponse::Created().body(out)
}
