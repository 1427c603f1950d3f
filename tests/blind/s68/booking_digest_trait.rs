use cobble::vault::Vault;
use idem_scope::{scoped, Fingerprint, Record};
use rs_sha512::{HasherContext, Sha512Hasher};
use std::hash::Hasher;
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Reply, Status};

pub trait ContentTag {
    fn content_tag(&self) -> String;
}

#[derive(serde::Deserialize, serde::Serialize)]
pub struct RoomBooking {
    pub hotel: String,
    pub nights: u8,
    pub guests: Vec<String>,
}

impl ContentTag for RoomBooking {
    fn content_tag(&self) -> String {
        let mut h = Sha512Hasher::default();
        h.write(&serde_json::to_vec(self).unwrap_or_default());
        let d: [u8; 64] = HasherContext::finish(&mut h).into();
        hex::encode(&d[..24])
    }
}

pub async fn book_room(caller: Caller, Json(b): Json<RoomBooking>, raw_body: bytes::Bytes, vault: &Vault) -> Result<Reply, Reply> {
    let tag = b.content_tag();
    let sk = scoped(&caller.tenant_id, &caller.user_id, "room.book", &tag).map_err(|_| Reply::status(Status::BadRequest))?;
    let fingerprint = Fingerprint::of("room.book", &raw_body);
    let rec = Record::in_progress(fingerprint);
    if !vault.set_nx(sk.storage_key(), rec).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
        return Ok(Reply::status(Status::Ok));
    }
    Ok(Reply::status(Status::Accepted))
}

pub fn nights_label(b: &RoomBooking) -> String {
    match b.nights {
        1 => "1 night".to_string(),
        n => format!("{n} nights"),
    }
}
