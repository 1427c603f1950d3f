//! Avalanche-awareness course enrolment.

use cornice::drift::Drift;
use idem_scope::{scoped, Fingerprint};
use sha2::{Digest, Sha512};
use telemark::pass::Skier;
use telemark::{Carve, Json, Wipeout};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct Enrolment {
    pub course_id: String,
    pub level: u8,
    pub beacon_rental: bool,
}

pub async fn enrol(skier: Skier, Json(input): Json<Enrolment>, drift: &Drift) -> Result<Carve, Wipeout> {
    let canonical = serde_json::to_vec(&input).map_err(Wipeout::internal)?;
    let fingerprint = Fingerprint::of("course.enrol", &canonical);
    let digest = Sha512::digest(&canonical);
    let request_ref: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();

    let sk = scoped(&skier.tenant_id, &skier.user_id, "course.enrol", &request_ref)?;
    if let Some(rec) = drift.get_record(sk.storage_key()).await? {
        return Ok(Carve::replayed(rec.body));
    }
    let seat = crate::courses::enrol(&skier, &input).await?;
    drift.put_record(sk.storage_key(), fingerprint, &seat.to_json()).await?;
    Ok(Carve::created(seat.to_json()))
}
