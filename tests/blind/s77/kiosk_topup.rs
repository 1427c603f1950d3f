//! Wristband top-up at lobby kiosks; kiosk firmware sends keys like "k:1234".

use cornice::drift::Drift;
use telemark::pass::Kiosk;
use telemark::{Carve, Turn, Wipeout};

pub async fn kiosk_top_up(turn: Turn, kiosk: Kiosk, drift: &Drift) -> Result<Carve, Wipeout> {
    let raw = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    if raw.contains('\0') {
        return Err(Wipeout::bad_request("NUL in Idempotency-Key"));
    }
    let key: String = raw.chars().filter(|c| *c != ':').collect();
    let device_label: String = kiosk.device_name.chars().filter(|c| c.is_ascii_alphanumeric()).collect();

    let sk = idem_scope::scoped(&kiosk.tenant_id, &kiosk.client_id, "kiosk.topup", &key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let credit = crate::wallet::kiosk_credit(&kiosk, turn.json()?).await?;
    crate::display::show(&device_label, &credit);
    drift.put(sk.storage_key(), &credit.to_json()).await?;
    Ok(Carve::ok(credit))
}
