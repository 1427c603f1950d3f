//! High-usage and continuous-flow alert settings for AMI customers.
//! The embeddable widget is served from partner sites and names its district.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::routing::Districts;
use penstock::{Code, Fault, Intake, Outflow};

pub enum TenantRef {
    District(String),
    Shared,
}

impl TenantRef {
    fn as_str(&self) -> &str {
        match self {
            TenantRef::District(id) => id,
            TenantRef::Shared => "shared",
        }
    }
}

pub async fn widget_alerts(intake: Intake, who: Customer, districts: &Districts, idem: &Tank) -> Result<Outflow, Fault> {
    let tenant = match intake.header("x-district").and_then(|h| districts.by_host(h)) {
        Some(d) => TenantRef::District(d.tenant_id.clone()),
        None => TenantRef::Shared,
    };
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(tenant.as_str(), &who.user_id, "usage-alerts", key)?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let threshold: u32 = intake.query("gallons_per_day").and_then(|g| g.parse().ok()).unwrap_or(500);
    let saved = crate::ami::alerts().set_threshold(tenant.as_str(), &who.user_id, threshold).await?;
    let out = Outflow::json(Code::OK, &saved);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}

pub async fn portal_alerts(intake: Intake, who: Customer, districts: &Districts, idem: &Tank) -> Result<Outflow, Fault> {
    let tenant_id = intake
        .header("x-district")
        .and_then(|h| districts.by_host(h))
        .map(|d| d.tenant_id.as_str())
        .unwrap_or(&who.tenant_id);
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(tenant_id, &who.user_id, "usage-alerts", key)?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let saved = crate::ami::alerts().set_threshold(tenant_id, &who.user_id, 500).await?;
    let out = Outflow::json(Code::OK, &saved);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}
