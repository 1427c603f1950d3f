use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, scoped_server, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Ctx, Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;
use sextant::queue::Delivery;

#[derive(Deserialize)]
pub struct Adjustment {
    pub account: String,
    pub delta_minor: i64,
}

#[derive(Deserialize)]
pub struct AdjustmentEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub adjustment: Adjustment,
}

pub struct Adjustments {
    locker: Arc<Locker>,
    books: crate::books::Books,
}

impl Adjustments {
    pub async fn post_http(&self, ctx: Ctx<()>, caller: Caller, head: Head, Json(adj): Json<Adjustment>) -> Reply {
        let _ = ctx;
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "adjustment", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if self.locker.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        let _ = self.books.apply(caller.tenant_id(), &adj.account, adj.delta_minor).await;
        let _ = self.locker.put(sk.storage_key(), b"done", Duration::from_secs(86_400)).await;
        Reply::status(Status::CREATED)
    }

    pub async fn on_delivery(&self, delivery: Delivery) -> eyre::Result<()> {
        let evt: AdjustmentEvent = serde_json::from_slice(delivery.payload())?;
        let sk = scoped(&evt.tenant_id, &evt.user_id, "adjustment", &evt.event_id)?;
        if self.locker.exists(sk.storage_key()).await? {
            delivery.ack().await?;
            return Ok(());
        }
        self.books.apply(&evt.tenant_id, &evt.adjustment.account, evt.adjustment.delta_minor).await?;
        self.locker.put(sk.storage_key(), b"done", Duration::from_secs(86_400)).await?;
        delivery.ack().await?;
        Ok(())
    }

    pub async fn on_redrive(&self, delivery: Delivery) -> eyre::Result<()> {
        let evt: AdjustmentEvent = serde_json::from_slice(delivery.payload())?;
        let sk = scoped_server(&evt.tenant_id, &evt.user_id, "adjustment", &evt.event_id)?;
        if !self.locker.exists(sk.storage_key()).await? {
            self.books.apply(&evt.tenant_id, &evt.adjustment.account, evt.adjustment.delta_minor).await?;
            self.locker.put(sk.storage_key(), b"done", Duration::from_secs(86_400)).await?;
        }
        delivery.ack().await?;
        Ok(())
    }
}
