//! Pool-fill scheduling: a one-off bulk fill that is exempt from sewer charges.

use aquifer::tank::Tank;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};

#[derive(Clone, Default)]
struct SlotParts {
    tenant_id: String,
    user_id: String,
    route: String,
    key: String,
}

impl SlotParts {
    fn render(&self) -> String {
        format!("{t}#{u}#{r}#{k}", t = self.tenant_id, u = self.user_id, r = self.route, k = self.key)
    }

    fn metric_label(&self) -> String {
        format!("{}/{}", self.tenant_id, self.route)
    }
}

pub async fn schedule_fill(intake: Intake, who: Customer, idem: &Tank) -> Result<Outflow, Fault> {
    let base = SlotParts {
        tenant_id: who.tenant_id.clone(),
        user_id: who.user_id.clone(),
        route: "pool-fill".to_owned(),
        ..SlotParts::default()
    };
    let hdr = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let parts = SlotParts { key: hdr.to_owned(), ..base.clone() };
    let slot = parts.render();
    if let Some(prev) = idem.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let class = intake.query("pool_class").unwrap_or("default");
    let booking = crate::scheduling::fills().book(&who.tenant_id, &who.user_id, class).await?;
    metrics::counter!("pool_fill_booked", "scope" => base.metric_label()).increment(1);
    let out = Outflow::json(Code::CREATED, &booking);
    idem.put(&slot, &out).await?;
    Ok(out)
}
