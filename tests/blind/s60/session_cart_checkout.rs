use gimbal::auth::Session;
use gimbal::{Ctx, Reply};
use idem_scope::{scoped, Problem};
use pyxis::kv::Shelf;

use crate::cart::{Carts, CheckoutError};

pub struct Checkout {
    replays: Shelf,
    carts: Carts,
}

impl Checkout {
    /// Guest checkout is allowed; signed-in users check out their own cart.
    pub async fn checkout(&self, ctx: Ctx, session: Option<Session>, cart_id: String) -> Result<Reply, CheckoutError> {
        let tenant_id = session.as_ref().map_or("public", |s| s.org_id.as_str());
        let user_id = match session.as_ref() {
            Some(s) => s.user_id.clone(),
            None => self.carts.guest_owner(&cart_id).await?.ok_or(CheckoutError::UnknownCart)?,
        };

        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let key = scoped(tenant_id, &user_id, "cart.checkout", k)?;

        if let Some(order) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(order));
        }
        let order = self.carts.checkout(tenant_id, &user_id, &cart_id).await?;
        let body = order.to_json();
        self.replays.put(key.storage_key(), &body).await?;
        Ok(Reply::created(body))
    }

    pub async fn preview(&self, session: Option<Session>, cart_id: String) -> Result<Reply, CheckoutError> {
        let tenant_id = session.as_ref().map_or("public", |s| s.org_id.as_str());
        let totals = self.carts.totals(tenant_id, &cart_id).await?;
        let label = format!("preview:{tenant_id}:{cart_id}");
        Ok(Reply::ok(totals.to_json()).with_header("X-Preview", &label))
    }
}
