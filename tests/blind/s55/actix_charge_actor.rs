use actix::prelude::*;
use ferrum::kv::{Kv, KvError};
use relay::http::HeaderMap;
use serde::{Deserialize, Serialize};
use tracing::info;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

#[derive(Message)]
#[rtype(result = "Result<ChargeReceipt, KvError>")]
pub struct ChargeCmd {
    pub tenant_id: String,
    pub user_id: String,
    pub idempotency_key: String,
    pub amount_minor: i64,
    pub currency: String,
}

impl ChargeCmd {
    pub fn from_gateway(
        headers: &HeaderMap,
        tenant_id: String,
        user_id: String,
        amount_minor: i64,
        currency: String,
    ) -> Option<Self> {
        let idempotency_key = headers.get(IDEMPOTENCY_HEADER)?.to_str().ok()?.to_owned();
        Some(Self { tenant_id, user_id, idempotency_key, amount_minor, currency })
    }
}

#[derive(Clone, Serialize, Deserialize, MessageResponse)]
pub struct ChargeReceipt {
    pub charge_id: String,
    pub status: String,
}

pub struct ChargeActor {
    replay: Kv<ChargeReceipt>,
    profiles: Kv<String>,
    ledger: ledger_client::Ledger,
}

impl Actor for ChargeActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(512);
    }
}

impl Handler<ChargeCmd> for ChargeActor {
    type Result = Result<ChargeReceipt, KvError>;

    fn handle(&mut self, msg: ChargeCmd, _ctx: &mut Self::Context) -> Self::Result {
        let route = "payments.charge";
        let slot = format!("{}:{}:{}:{}", msg.tenant_id, msg.user_id, route, msg.idempotency_key);
        if let Some(prev) = self.replay.get(&slot)? {
            info!(key = %msg.idempotency_key, tenant = %msg.tenant_id, "replaying charge");
            return Ok(prev);
        }

        let profile_key = format!("user:{}:profile", msg.user_id);
        let display = self.profiles.get(&profile_key)?.unwrap_or_default();
        let charge_id = self
            .ledger
            .post(&msg.tenant_id, msg.amount_minor, &msg.currency, &display);

        let receipt = ChargeReceipt { charge_id, status: "succeeded".into() };
        self.replay.put(&slot, receipt.clone())?;
        Ok(receipt)
    }
}
