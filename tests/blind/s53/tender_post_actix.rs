use actix_web::{web, HttpRequest, HttpResponse};
use idem_scope::{scoped, Problem, ScopedKey};
use serde::{Deserialize, Serialize};

use crate::auth::ShipperSession;
use crate::tenders::{TenderBook, TenderOffer};

#[derive(Serialize, Deserialize, Clone)]
pub struct Receipt {
    pub tender_id: String,
    pub accepted_rate_cents: i64,
}

fn idem_header(req: &HttpRequest) -> Option<String> {
    let v = req.headers().get("idempotency-key")?;
    v.to_str().ok().map(|s| s.to_owned())
}

fn prior_receipt(tree: &sled::Tree, req: &HttpRequest) -> Option<Receipt> {
    let k = idem_header(req)?;
    let raw = tree.get(k.as_bytes()).ok().flatten()?;
    serde_json::from_slice(&raw).ok()
}

fn record_receipt(tree: &sled::Tree, key: &ScopedKey, receipt: &Receipt) -> sled::Result<()> {
    let bytes = serde_json::to_vec(receipt).expect("receipt serialises");
    tree.insert(key.storage_key().as_bytes(), bytes)?;
    Ok(())
}

pub async fn post_tender(
    req: HttpRequest,
    session: ShipperSession,
    offer: web::Json<TenderOffer>,
    tree: web::Data<sled::Tree>,
    book: web::Data<TenderBook>,
) -> HttpResponse {
    if let Some(done) = prior_receipt(&tree, &req) {
        return HttpResponse::Ok().insert_header(("Idempotent-Replayed", "true")).json(done);
    }
    let Some(raw_key) = idem_header(&req) else {
        return HttpResponse::BadRequest().body(Problem::missing_key().to_json());
    };
    let key = match scoped(&session.account_id, &session.user_id, "tenders.post", &raw_key) {
        Ok(k) => k,
        Err(e) => return HttpResponse::BadRequest().body(Problem::invalid_key(&e.to_string()).to_json()),
    };
    let tender = match book.post(&session.account_id, offer.into_inner()).await {
        Ok(t) => t,
        Err(e) => return HttpResponse::UnprocessableEntity().body(e.to_string()),
    };
    let audit_line = format!("tender {} posted with client key {}", tender.id, raw_key);
    book.audit(&session.account_id, &audit_line).await;
    let receipt = Receipt { tender_id: tender.id, accepted_rate_cents: tender.rate_cents };
    if let Err(e) = record_receipt(&tree, &key, &receipt) {
        tracing::warn!(error = %e, "could not record tender receipt");
    }
    HttpResponse::Created().json(receipt)
}
