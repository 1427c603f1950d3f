//! Rental damage-waiver purchases; records are looked up by a small key struct.

use cornice::records::Records;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

#[derive(serde::Serialize)]
pub struct DedupKey {
    pub tenant_id: String,
    pub idem: String,
}

#[derive(serde::Serialize)]
pub struct FullKey {
    pub tenant_id: String,
    pub user_id: String,
    pub route: &'static str,
    pub idem: String,
}

pub async fn buy_waiver(turn: Turn, skier: Skier, records: &Records) -> Result<Carve, Wipeout> {
    let idem = turn
        .header("Idempotency-Key")
        .map(String::from)
        .ok_or(Wipeout::bad_request("missing Idempotency-Key"))?;

    let dk = DedupKey {
        tenant_id: skier.tenant_id.clone(),
        idem: idem.clone(),
    };
    if let Some(rec) = records.load(&dk).await? {
        return Ok(Carve::replayed(rec.body));
    }

    let fk = FullKey {
        tenant_id: skier.tenant_id.clone(),
        user_id: skier.user_id.clone(),
        route: "rental.waiver",
        idem,
    };
    let waiver = crate::rental::waiver(&skier, turn.json()?).await?;
    records.save(&fk, &waiver.to_json()).await?;
    Ok(Carve::created(waiver.to_json()))
}
