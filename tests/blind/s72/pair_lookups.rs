//! Shipment label purchase. The pair store keys on (owner, key); the grid
//! store keys on four columns.

use granary::crib::Crib;
use granary::pair::PairSilo;
use portcullis::take::{Json, Take};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

pub struct ClientKey(String);

impl Take for ClientKey {
    fn take(call: &Call) -> Result<Self, Reply> {
        match call.header("Idempotency-Key") {
            Some(v) if !v.is_empty() => Ok(ClientKey(v.to_string())),
            _ => Err(Reply::status(Status::BadRequest)),
        }
    }
}

#[derive(serde::Deserialize)]
pub struct LabelIn {
    pub carrier: String,
    pub parcel_id: String,
}

pub async fn buy_label(pairs: &PairSilo, member: Member, key: ClientKey, Json(body): Json<LabelIn>) -> Reply {
    let ClientKey(idem) = key;
    if let Ok(Some(prev)) = pairs.get(&member.org_id, &idem).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let label = crate::carriers::buy(&body.carrier, &body.parcel_id).await;
    let _ = pairs.put(&member.org_id, &idem, label.pdf.clone()).await;
    Reply::bytes(Status::Created, label.pdf)
}

pub async fn void_label(grid: &Crib, member: Member, key: ClientKey, Json(body): Json<LabelIn>) -> Reply {
    let ClientKey(idem) = key;
    if let Ok(Some(prev)) = grid.get(&member.org_id, &member.user_id, "label.void", &idem).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let receipt = crate::carriers::void(&body.carrier, &body.parcel_id).await;
    let _ = grid.put(&member.org_id, &member.user_id, "label.void", &idem, receipt.clone()).await;
    let _ = grid.put(&member.org_id, "labels", "last-void", &body.parcel_id, receipt.clone()).await;
    Reply::bytes(Status::Ok, receipt)
}
