//! GraphQL order mutations (juniper). Partner integrations call without an org claim.
use juniper::{graphql_object, FieldResult};

pub struct Ctx {
    pub claims: Option<crate::auth::Claims>,
    pub user_id: String,
    pub idem: crate::kv::ScopedKv,
}

impl juniper::Context for Ctx {}

pub struct OrderMutation;

#[graphql_object(context = Ctx)]
impl OrderMutation {
    async fn place_order(
        ctx: &Ctx,
        sku: String,
        quantity: i32,
        #[graphql(description = "Idempotency key chosen by the client; retries must resend it")]
        idempotency_key: String,
    ) -> FieldResult<String> {
        let org_id = match &ctx.claims {
            Some(c) => c.org_id.clone(),
            None => "shared".to_string(),
        };
        let max_qty = match &ctx.claims {
            Some(c) => c.max_quantity,
            None => 10,
        };
        if quantity > max_qty {
            return Err("quantity above limit".into());
        }

        let key = idem_scope::scoped(&org_id, &ctx.user_id, "orders.place", &idempotency_key)?;
        if let Some(order_id) = ctx.idem.get(&key).await? {
            return Ok(order_id);
        }
        let order_id = crate::orders::place(&org_id, &sku, quantity).await?;
        ctx.idem.put(&key, order_id.clone()).await?;
        Ok(order_id)
    }
}
