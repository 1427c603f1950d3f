use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::Head;
use moraine::{Reply, Status};
use nsq_client::{Context, Handler, Message};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
struct SettlementMsg {
    tenant_id: String,
    user_id: String,
    batch: String,
}

pub struct Settlements {
    pub locker: Arc<Locker>,
    pub bank: crate::bank::BankApi,
}

impl Settlements {
    pub async fn settle_http(&self, caller: Caller, head: Head, batch: String) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "settle", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if self.locker.set_nx(sk.storage_key(), b"1", Duration::from_secs(86_400)).await.unwrap_or(false) {
            let _ = self.bank.settle(caller.tenant_id(), &batch).await;
        }
        Reply::status(Status::ACCEPTED)
    }
}

pub struct SettlementHandler {
    inner: Arc<Settlements>,
}

impl Handler for SettlementHandler {
    fn handle(&mut self, ctx: &mut Context<Self>, msg: Message) {
        let inner = self.inner.clone();
        let msg_id = msg.id.clone();
        ctx.spawn(async move {
            let Ok(body) = serde_json::from_slice::<SettlementMsg>(&msg.body) else {
                msg.finish();
                return;
            };
            let route = "settle";
            let key = format!("{}:{}:{}:{}", body.tenant_id, body.user_id, route, msg_id);
            if inner.locker.set_nx(&key, b"1", Duration::from_secs(86_400)).await.unwrap_or(false) {
                let _ = inner.bank.settle(&body.tenant_id, &body.batch).await;
            }
            msg.finish();
        });
    }
}
