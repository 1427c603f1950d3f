//! Soil-sample lab orders. Bags are scanned at the elevator and the order
//! is sent to the lab. The quad store keys on (org, user, route, key).

use bushel::blobs::Blobs;
use bushel::quad::QuadCrock;
use furrow::glean::RawBytes;
use furrow::warrant::Agronomist;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::Problem;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct LabOrder {
    pub field_id: String,
    pub bag_codes: Vec<String>,
    pub package: String,
}

pub struct Lab {
    pub quad: QuadCrock,
    pub blobs: Blobs,
    pub client: LabClient,
}

pub async fn submit_samples(Shared(lab): Shared<Lab>, a: Agronomist, raw: RawBytes) -> Ruling {
    let order: LabOrder = match furrow::codec::from_slice(&raw.0) {
        Ok(o) => o,
        Err(e) => return Ruling::with(StatusLine::UNPROCESSABLE).text(&e.to_string()),
    };
    let content = bao::hash(&raw.0).to_hex();
    let slot = match lab.quad.entry(&a.org_id, &a.sub, "soil_order", content.as_str()).await {
        Ok(s) => s,
        Err(e) => return Ruling::with(StatusLine::SERVICE_UNAVAILABLE).text(&e.to_string()),
    };
    if let Some(prev) = slot.value() {
        return Ruling::ok().bytes(prev.to_vec());
    }
    let accepted = lab.client.order(&order.field_id, &order.bag_codes, &order.package).await;
    let body = furrow::codec::to_vec(&accepted).unwrap_or_default();
    let _ = slot.fill(body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn resample(p: Petition, Shared(lab): Shared<Lab>, a: Agronomist, raw: RawBytes) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    if let Ok(Some(prev)) = lab.quad.get(&a.org_id, &a.sub, "soil_resample", k).await {
        return Ruling::ok().bytes(prev);
    }
    let order: LabOrder = match furrow::codec::from_slice(&raw.0) {
        Ok(o) => o,
        Err(e) => return Ruling::with(StatusLine::UNPROCESSABLE).text(&e.to_string()),
    };
    let accepted = lab.client.resample(&order.field_id, &order.bag_codes).await;
    let report_pdf = lab.client.fetch_report(&accepted.report_id).await.unwrap_or_default();
    let object = format!("{}/soil/{}.pdf", a.org_id, bao::hash(&report_pdf).to_hex());
    let _ = lab.blobs.put_object(&object, report_pdf).await;
    let body = furrow::codec::to_vec(&accepted).unwrap_or_default();
    let _ = lab.quad.put(&a.org_id, &a.sub, "soil_resample", k, body.clone()).await;
    Ruling::created().bytes(body)
}
