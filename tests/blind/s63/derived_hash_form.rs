use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use cistern::tuple::TupleVat;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Form, State};
use wherry::{Ctx, Reply, Status};

const SHARDS: u64 = 16;

#[derive(Deserialize, Hash)]
pub struct ContactForm {
    pub email: String,
    pub topic: String,
    pub message: String,
}

#[derive(Clone)]
pub struct Support {
    pub replies: Arc<TupleVat>,
    pub shards: Arc<Vec<TupleVat>>,
    pub desk: Arc<helpdesk::Desk>,
}

pub async fn submit_contact(caller: Caller, State(s): State<Support>, Form(form): Form<ContactForm>) -> Result<Reply, Problem> {
    let mut h = DefaultHasher::new();
    form.hash(&mut h);
    let digest = format!("{:016x}", h.finish());
    let slot = (caller.workspace_id.clone(), caller.user_id.clone(), "submit_contact", digest);

    if let Some(done) = s.replies.get(&slot).await {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let ticket = s.desk.open(&caller.workspace_id, &form.email, &form.topic, &form.message).await;
    s.replies.put(&slot, ticket.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, ticket.to_json()))
}

pub async fn escalate(ctx: Ctx, caller: Caller, State(s): State<Support>, Form(form): Form<ContactForm>) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.workspace_id, &caller.user_id, "escalate", client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let shard = {
        let mut h = DefaultHasher::new();
        sk.storage_key().hash(&mut h);
        (h.finish() % SHARDS) as usize
    };
    let replies = &s.shards[shard];
    if let Some(done) = replies.get(&sk.storage_key()).await {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let ticket = s.desk.escalate(&caller.workspace_id, &form.topic, &form.message).await;
    replies.put(&sk.storage_key(), ticket.to_json()).await;
    Ok(Reply::bytes(Status::OK, ticket.to_json()))
}
