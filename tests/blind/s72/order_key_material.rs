//! Orders expose their key material through a trait so that the importer
//! and the HTTP API agree on it.

use crypto_hashes::blake2::{Blake2s256, Digest};
use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::take::Json;
use portcullis::who::Member;
use portcullis::{Reply, Status};

pub trait KeyMaterial {
    fn key_material(&self) -> String;
}

#[derive(serde::Deserialize, serde::Serialize)]
pub struct CreateOrder {
    pub lines: Vec<(String, u32)>,
    pub note: Option<String>,
}

impl KeyMaterial for CreateOrder {
    fn key_material(&self) -> String {
        let bytes = serde_json::to_vec(self).unwrap_or_default();
        format!("{:x}", Blake2s256::digest(&bytes))
    }
}

fn shard_of(member: &Member) -> u8 {
    Blake2s256::digest(member.user_id.as_bytes())[0] % 16
}

pub async fn create(silo: &Silo, member: Member, Json(order): Json<CreateOrder>) -> Reply {
    let shard = shard_of(&member);
    let key = match scoped(&member.org_id, &member.user_id, "orders.create", &order.key_material()) {
        Ok(k) => k,
        Err(_) => return Reply::status(Status::BadRequest),
    };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::orders::create(shard, &order).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
