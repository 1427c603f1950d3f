//! Scouting photo uploads from the agronomists' drones. A photo starts a
//! scouting ticket (weed pressure, hail, standing water); uploads are
//! retried by the drone app when the hotspot drops.

use blockhash::blockhash256;
use bushel::blobs::Blobs;
use bushel::crock::Crock;
use furrow::glean::RawBytes;
use furrow::warrant::Agronomist;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::scoped;

pub struct Scouting {
    pub crock: Crock,
    pub blobs: Blobs,
    pub tickets: TicketDesk,
}

pub async fn upload_photo(p: Petition, Shared(s): Shared<Scouting>, a: Agronomist, raw: RawBytes) -> Ruling {
    let img = match image::load_from_memory(&raw.0) {
        Ok(i) => i,
        Err(_) => return Ruling::with(StatusLine::UNSUPPORTED_MEDIA_TYPE),
    };
    let Some(field_id) = p.query("field") else {
        return Ruling::with(StatusLine::BAD_REQUEST).text("field");
    };

    // near-identical photos of the same spot open one ticket, not five
    let phash = blockhash256(&img).to_string();
    let key = match scoped(&a.org_id, &a.sub, "scouting_photo", &phash) {
        Ok(k) => k,
        Err(e) => return Ruling::with(StatusLine::BAD_REQUEST).text(&e.to_string()),
    };
    if let Ok(Some(ticket)) = s.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(ticket);
    }

    let object = format!("{}/scouting/{}/{}.jpg", a.org_id, field_id, uuid::Uuid::new_v4());
    if let Err(e) = s.blobs.put_object(&object, raw.0.to_vec()).await {
        return Ruling::with(StatusLine::SERVICE_UNAVAILABLE).text(&e.to_string());
    }
    let ticket = s.tickets.open(&a.org_id, field_id, &object).await;
    let body = furrow::codec::to_vec(&ticket).unwrap_or_default();
    let _ = s.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn attach_photo(p: Petition, Shared(s): Shared<Scouting>, a: Agronomist, raw: RawBytes) -> Ruling {
    let (Some(k), Some(ticket_id)) = (p.header("Idempotency-Key"), p.query("ticket")) else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    let key = match scoped(&a.org_id, &a.sub, "scouting_attach", k) {
        Ok(k) => k,
        Err(e) => return Ruling::with(StatusLine::BAD_REQUEST).text(&e.to_string()),
    };
    if let Ok(Some(prev)) = s.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let photo_no = s.tickets.next_photo_no(ticket_id).await;
    let object = format!("{}/tickets/{}/{:04}.jpg", a.org_id, ticket_id, photo_no);
    let _ = s.blobs.put_object(&object, raw.0.to_vec()).await;
    let _ = s.crock.put(key.storage_key(), object.clone().into_bytes()).await;
    Ruling::created().text(&object)
}
