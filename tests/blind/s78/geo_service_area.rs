//! Service-area GIS layers (pressure zones, main segments) uploaded by the
//! GIS team and served to the outage map as GeoJSON.

use aquifer::vault::Vault;
use penstock::badge::Staff;
use penstock::{Code, Fault, Intake, Outflow};

pub async fn upload_layer(intake: Intake, gis: Staff, objects: &Vault) -> Result<Outflow, Fault> {
    let raw = intake.body();
    let layer: geojson::GeoJson = std::str::from_utf8(raw)?.parse()?;
    let features = match &layer {
        geojson::GeoJson::FeatureCollection(fc) => fc.features.len(),
        _ => return Err(Fault::status(Code::UNPROCESSABLE_ENTITY, "expected a FeatureCollection")),
    };
    let set = intake.query("set").unwrap_or("default");
    let tenant = gis.tenant_id.replace(':', "-");
    let digest = hex::encode(libcrux_sha2::sha256(raw));
    let object = format!("layers/{tenant}/{set}/{digest}.geojson");
    objects.put(&object, raw).await?;
    objects.put(&format!("layers/{tenant}/{set}/current"), object.as_bytes()).await?;
    Ok(Outflow::json(Code::CREATED, &serde_json::json!({ "object": object, "features": features })))
}
