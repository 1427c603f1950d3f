//! Freight quotes from EDI partners arrive as XML.

use granary::silo::Silo;
use harsh::Harsh;
use idem_scope::{scoped, scoped_server};
use portcullis::who::Partner;
use portcullis::{Call, Reply, Status};
use sha2::{Digest, Sha384};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct QuoteRequest {
    pub origin: String,
    pub destination: String,
    pub weight_kg: u32,
}

pub async fn quote(silo: &Silo, harsh: &Harsh, call: Call) -> Reply {
    let Some(partner) = call.ext::<Partner>() else { return Reply::status(Status::Forbidden) };
    let req: QuoteRequest = match serde_xml_rs::from_reader(call.body()) {
        Ok(r) => r,
        Err(_) => return Reply::status(Status::BadRequest),
    };
    let d = Sha384::new_with_prefix(serde_json::to_vec(&req).unwrap_or_default()).finalize();
    let n = u64::from_be_bytes(d[..8].try_into().unwrap_or([0; 8]));
    let slot = harsh.encode(&[n]);
    let key = match scoped(&partner.merchant_id, &partner.partner_id, "freight.quote", &slot) {
        Ok(k) => k,
        Err(_) => return Reply::status(Status::BadRequest),
    };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let quote = crate::freight::price(&req.origin, &req.destination, req.weight_kg).await;
    let quote_id = harsh.encode(&[quote.id]);
    if let Ok(sk) = scoped_server(&partner.merchant_id, &partner.partner_id, "freight.quote", &quote_id) {
        let _ = silo.put(sk.storage_key(), quote.encode()).await;
    }
    let _ = silo.put(key.storage_key(), quote.encode()).await;
    Reply::json(Status::Created, &quote)
}
