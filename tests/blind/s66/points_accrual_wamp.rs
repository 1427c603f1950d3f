use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use wamp_async::{Client, WampError, WampKwArgs};

use crate::loyalty::{Accrual, PointsBook};

/// Points are accrued by partner API calls and by `order_paid` events on the router.
pub struct PointsAccrual {
    stash: Arc<Stash>,
    book: Arc<PointsBook>,
}

fn kw_str(kwargs: &Option<WampKwArgs>, name: &str) -> Option<String> {
    kwargs.as_ref()?.get(name)?.as_str().map(str::to_owned)
}

impl PointsAccrual {
    pub async fn accrue_via_api(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let slot = match scoped(&who.tenant_id, &who.user_id, "points_accrue", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(accrual) = call.json::<Accrual>() else { return Answer::status(Code::BAD_REQUEST) };
        match self.book.accrue(&who.tenant_id, &accrual).await {
            Ok(balance) => {
                let body = balance.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }

    pub async fn follow_orders(&self, client: &mut Client<'_>) -> Result<(), WampError> {
        let (_sub, mut events) = client.subscribe("com.shop.order_paid").await?;
        while let Some((pub_id, _args, kwargs)) = events.recv().await {
            let (Some(tenant_id), Some(user_id), Some(amount)) = (kw_str(&kwargs, "tenant_id"), kw_str(&kwargs, "user_id"), kw_str(&kwargs, "amount_minor")) else {
                continue;
            };
            let event_id = pub_id.to_string();
            let Ok(slot) = scoped(&tenant_id, &user_id, "points_accrue", &event_id) else { continue };
            if let Ok(Some(_)) = self.stash.get(slot.storage_key()).await {
                continue;
            }
            let accrual = Accrual::from_order(&amount);
            if let Ok(balance) = self.book.accrue(&tenant_id, &accrual).await {
                let _ = self.stash.put(slot.storage_key(), &balance.to_json().into_bytes()).await;
            }
        }
        Ok(())
    }
}
