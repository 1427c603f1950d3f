//! Order placement for the B2B catalogue; deduplicates identical orders.

use base64urlsafedata::Base64UrlSafeData;
use granary::silo::Silo;
use portcullis::take::Json;
use portcullis::who::Member;
use portcullis::{Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct PlaceOrder {
    pub sku: String,
    pub qty: u32,
    pub ship_to: String,
}

pub async fn place(silo: &Silo, member: Member, Json(req): Json<PlaceOrder>) -> Reply {
    let canonical = serde_json::to_vec(&req).unwrap_or_default();
    let digest = hacl_star::sha2::sha256(&canonical);
    let b64 = Base64UrlSafeData::from(digest.to_vec()).to_string();
    let key = format!("{}/{}/{}/{}", member.org_id, member.user_id, "order.place", b64);
    let user_tag = Base64UrlSafeData::from(hacl_star::sha2::sha256(member.user_id.as_bytes()).to_vec()).to_string();
    tracing::info!(user = %user_tag, "order placed");
    if let Ok(Some(prev)) = silo.get(&key).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::orders::place(&member.org_id, &req.sku, req.qty).await;
    let _ = silo.put(&key, out.clone()).await;
    Reply::bytes(Status::Created, out)
}
