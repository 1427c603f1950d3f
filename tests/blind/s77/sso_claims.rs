//! Staff SSO: purchase-on-behalf for guests at the ticket office.

use cornice::drift::Drift;
use telemark::auth::SsoClaims;
use telemark::{Carve, Turn, Wipeout};

pub async fn office_sale(turn: Turn, claims: SsoClaims, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    if claims.tenant_id.contains('\u{1e}') || claims.tenant_id.is_empty() {
        return Err(Wipeout::problem(idem_scope::Problem::invalid_key("tenant contains the separator")));
    }
    let user_id = claims.user_id.replace('\u{1e}', "");
    let display = claims.display_name.replace(':', " ");

    let sk = idem_scope::scoped(&claims.tenant_id, &user_id, "office.sale", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let sale = crate::office::sell(&claims, turn.json()?).await?;
    tracing::info!(cashier = %display, "office sale");
    drift.put(sk.storage_key(), &sale.to_json()).await?;
    Ok(Carve::created(sale.to_json()))
}
