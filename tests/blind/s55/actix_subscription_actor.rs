use std::io::Cursor;

use actix::prelude::*;
use ferrum::kv::{Kv, KvError};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize)]
pub struct SubscriptionInput {
    pub plan: String,
    pub seats: u32,
    pub coupon: Option<String>,
}

#[derive(Message)]
#[rtype(result = "Result<Vec<u8>, SubscribeError>")]
pub struct GatewayRequest {
    pub account_id: String,
    pub user_id: String,
    pub path: String,
    pub body: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum SubscribeError {
    #[error("bad input: {0}")]
    Input(#[from] serde_json::Error),
    #[error("store: {0}")]
    Store(#[from] KvError),
    #[error("hash: {0}")]
    Hash(#[from] std::io::Error),
}

pub struct SubscriptionActor {
    replays: Kv<Vec<u8>>,
    billing: billing::Client,
}

impl Actor for SubscriptionActor {
    type Context = Context<Self>;
}

fn experiment_bucket(user_id: &str) -> u8 {
    let h = murmur3::murmur3_32(&mut Cursor::new(user_id.as_bytes()), 7).unwrap_or(0);
    (h % 100) as u8
}

impl Handler<GatewayRequest> for SubscriptionActor {
    type Result = ResponseFuture<Result<Vec<u8>, SubscribeError>>;

    fn handle(&mut self, msg: GatewayRequest, _ctx: &mut Self::Context) -> Self::Result {
        let replays = self.replays.clone();
        let billing = self.billing.clone();
        Box::pin(async move {
            let input: SubscriptionInput = serde_json::from_slice(&msg.body)?;
            let canonical = serde_json::to_vec(&input)?;
            let h = murmur3::murmur3_x64_128(&mut Cursor::new(&canonical), 0)?;
            let action = "subscriptions.create";
            let replay_key = (msg.account_id.as_str(), msg.user_id.as_str(), action, h);
            if let Some(hit) = replays.get(&replay_key).await? {
                return Ok(hit);
            }
            let bucket = experiment_bucket(&msg.user_id);
            let sub = billing.subscribe(&msg.account_id, &input.plan, input.seats, bucket).await;
            let out = serde_json::to_vec(&sub)?;
            replays.put(&replay_key, out.clone()).await?;
            Ok(out)
        })
    }
}
