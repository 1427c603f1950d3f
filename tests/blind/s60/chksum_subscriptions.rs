use gimbal::{Ctx, Json, RawBody, Reply};
use idem_scope::{scoped, Fingerprint, Problem};
use pyxis::kv::Shelf;
use serde::{Deserialize, Serialize};

use crate::plans::{Billing, Plan, PlanError};

#[derive(Serialize, Deserialize)]
pub struct SubscribeRequest {
    pub plan: Option<Plan>,
    pub seats: u32,
    pub coupon: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    body: Vec<u8>,
    fingerprint: Vec<u8>,
}

pub struct Subscriptions {
    replays: Shelf,
    billing: Billing,
}

impl Subscriptions {
    pub async fn subscribe(&self, ctx: Ctx, Json(input): Json<SubscribeRequest>) -> Result<Reply, PlanError> {
        let auth = ctx.auth();
        let canonical = serde_json::to_vec(&input)?;
        let digest = chksum_sha2_256::chksum(canonical)?.to_hex_lowercase();
        let slot = format!("{}/{}/{}/{}", auth.tenant_id, auth.user_id, "subscriptions.create", digest);
        if let Some(prev) = self.replays.get(&slot).await? {
            return Ok(Reply::replay(prev));
        }

        let plan = input.plan.unwrap_or_default();
        let sub = self.billing.subscribe(&auth.tenant_id, plan, input.seats, input.coupon.as_deref()).await?;
        let body = serde_json::to_vec(&sub)?;
        self.replays.put(&slot, &body).await?;
        Ok(Reply::created(body))
    }

    pub async fn change_seats(&self, ctx: Ctx, RawBody(raw): RawBody) -> Result<Reply, PlanError> {
        let auth = ctx.auth();
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let key = scoped(&auth.tenant_id, &auth.user_id, "subscriptions.seats", k)?;
        let fingerprint = Fingerprint::of("subscriptions.seats", &raw);

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            let stored: Stored = serde_json::from_slice(&prev)?;
            if stored.fingerprint.as_slice() != fingerprint.as_bytes().as_slice() {
                return Ok(Reply::problem(Problem::mismatch(k)));
            }
            return Ok(Reply::replay(stored.body));
        }

        let seats: u32 = serde_json::from_slice::<serde_json::Value>(&raw)?
            .get("seats")
            .and_then(|v| v.as_u64())
            .ok_or(PlanError::Invalid("seats"))? as u32;
        let sub = self.billing.set_seats(&auth.tenant_id, seats).await?;
        let body = serde_json::to_vec(&sub)?;
        let stored = Stored { body: body.clone(), fingerprint: fingerprint.as_bytes().to_vec() };
        self.replays.put(key.storage_key(), &serde_json::to_vec(&stored)?).await?;
        Ok(Reply::ok(body))
    }
}
