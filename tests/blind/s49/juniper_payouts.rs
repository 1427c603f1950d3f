//! GraphQL mutations for payouts (juniper).
use juniper::{graphql_object, FieldResult, GraphQLInputObject, GraphQLObject};

use crate::kv::Kv;

pub struct Context {
    pub tenant_id: String,
    pub user_id: String,
    pub replay: Kv<(String, String), Payout>,
    pub scoped_replay: Kv<String, Payout>,
    pub audit: crate::audit::Sink,
}

impl juniper::Context for Context {}

#[derive(GraphQLInputObject)]
pub struct PayoutInput {
    pub amount_minor: i32,
    pub destination: String,
}

#[derive(GraphQLObject, Clone)]
pub struct Payout {
    pub id: String,
    pub status: String,
}

pub struct Mutation;

#[graphql_object(context = Context)]
impl Mutation {
    async fn create_payout(
        ctx: &Context,
        input: PayoutInput,
        #[graphql(description = "Client-supplied idempotency key (same semantics as the Idempotency-Key header)")]
        idempotency_key: String,
    ) -> FieldResult<Payout> {
        ctx.audit.record("payout.requested", &idempotency_key);
        let slot = (ctx.tenant_id.clone(), idempotency_key.clone());
        if let Some(prev) = ctx.replay.get(&slot).await? {
            return Ok(prev);
        }
        let payout = crate::payouts::create(&ctx.tenant_id, &ctx.user_id, input).await?;
        ctx.replay.insert(slot, payout.clone()).await?;
        Ok(payout)
    }

    async fn cancel_payout(
        ctx: &Context,
        payout_id: String,
        #[graphql(description = "Client-supplied idempotency key")]
        idempotency_key: String,
    ) -> FieldResult<Payout> {
        let key = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, "cancel_payout", &idempotency_key)?;
        if let Some(prev) = ctx.scoped_replay.get(key.storage_key()).await? {
            return Ok(prev);
        }
        let payout = crate::payouts::cancel(&ctx.tenant_id, &payout_id).await?;
        ctx.scoped_replay.insert(key.storage_key().to_owned(), payout.clone()).await?;
        Ok(payout)
    }
}
