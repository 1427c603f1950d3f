//! Animal transfer requests between accredited institutions (studbook
//! keepers recommend a breeding loan; the receiving zoo files the request).

use enclosure::extract::{Json, Shared};
use enclosure::pass::Partner;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

const IDEM: &str = "Idempotency-Key";

#[derive(Deserialize)]
pub struct TransferRequest {
    species: String,
    studbook_id: String,
    from_institution: String,
    crate_ready_by: String,
}

pub struct StudbookDesk {
    pub replays: Tank,
    pub species_codes: Tank,
    pub transfers: crate::studbook::Transfers,
}

pub async fn request_transfer(visit: Visit, Shared(desk): Shared<StudbookDesk>, partner: Partner, Json(req): Json<TransferRequest>) -> Result<Reply, Fault> {
    let key = visit
        .header(IDEM)
        .map(|k| k.replace(':', "-"))
        .ok_or_else(|| Fault::bad_request("Idempotency-Key required"))?;
    let slot = scoped(&partner.org_id, &partner.client_id, "studbook.transfer", &key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }

    let species_code = req.species.to_lowercase().replace(' ', "_");
    let code = desk.species_codes.get(&species_code).await?.ok_or_else(|| Fault::unprocessable("unknown species"))?;
    let transfer = desk
        .transfers
        .file(&partner.org_id, &code, &req.studbook_id, &req.from_institution, &req.crate_ready_by)
        .await?;
    let body = serde_json::to_vec(&transfer).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
