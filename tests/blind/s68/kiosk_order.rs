use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::MaybeCaller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

/// Kiosks in the shared food court are not bound to one vendor account.
const SHARED_VENDOR: &str = "shared-vendor";

#[derive(serde::Deserialize, serde::Serialize)]
pub struct KioskOrder {
    pub kiosk: String,
    pub items: Vec<String>,
    pub display_name: String,
}

pub async fn kiosk_order(ex: Exchange, who: MaybeCaller, Json(order): Json<KioskOrder>, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let vendor = if let Some(v) = who.account_id.as_deref() {
        v
    } else {
        SHARED_VENDOR
    };
    let kiosk_principal = format!("kiosk-{}", order.kiosk);
    let sk = scoped(vendor, &kiosk_principal, "kiosk.order", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

    let shown = order.display_name.replace(':', " ");
    if vault.exists(sk.storage_key()).await.map_err(|_| down())? {
        return Ok(Reply::text(Status::Ok, format!("order for {shown} already placed")));
    }
    vault.put(sk.storage_key(), serde_json::to_vec(&order).unwrap_or_default()).await.map_err(|_| down())?;
    Ok(Reply::text(Status::Created, format!("thanks {shown}")))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
