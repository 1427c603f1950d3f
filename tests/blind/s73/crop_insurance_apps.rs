//! Crop-insurance applications forwarded to the approved insurance
//! provider. Growers re-submit the same application from the office and
//! from the app, so the endpoint deduplicates them.

use bushel::blobs::Blobs;
use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Fingerprint, Record};
use serde::Deserialize;
use sha2::{Digest, Sha512};

#[derive(Deserialize)]
pub struct Application {
    pub policy_no: String,
    pub crop: String,
    pub acres: u32,
    pub unit_structure: String,
}

pub struct Office {
    pub crock: Crock,
    pub blobs: Blobs,
    pub aip: AipClient,
}

pub async fn submit(p: Petition, Shared(office): Shared<Office>, g: Grower, Json(app): Json<Application>) -> Ruling {
    let mut h = Sha512::new();
    h.update(app.policy_no.as_bytes());
    h.update(app.crop.as_bytes());
    h.update(app.acres.to_le_bytes());
    h.update(app.unit_structure.as_bytes());
    let tag = radix64::URL_SAFE.encode(&h.finalize()[..24]);

    let key = match scoped(&g.org_id, &g.user_id, "insurance_app", &tag) {
        Ok(k) => k,
        Err(e) => return Ruling::with(StatusLine::BAD_REQUEST).text(&e.to_string()),
    };
    if let Ok(Some(prev)) = office.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }

    let fp = Fingerprint::of("insurance_app", p.body());
    let pending = Record::in_progress(fp);
    let _ = office.crock.put_record(key.storage_key(), &pending).await;

    let signed = match office.aip.submit(&app.policy_no, &app.crop, app.acres).await {
        Ok(s) => s,
        Err(e) => {
            let _ = office.crock.remove(key.storage_key()).await;
            return Ruling::with(StatusLine::BAD_GATEWAY).text(&e.to_string());
        }
    };
    let pdf_name = radix64::URL_SAFE.encode(&Sha512::digest(&signed.pdf)[..18]);
    let _ = office.blobs.put_object(&format!("{}/apps/{}.pdf", g.org_id, pdf_name), signed.pdf.clone()).await;

    let body = furrow::codec::to_vec(&signed.summary).unwrap_or_default();
    let _ = office.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}
