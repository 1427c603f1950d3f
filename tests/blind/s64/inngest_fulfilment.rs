use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, scoped_server, Namespace};
use inngest::event::Event;
use inngest::function::{create_function, FunctionOps, Input, ServableFn, Trigger};
use inngest::step_tool::Step;
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct OrderPlaced {
    pub tenant_id: String,
    pub user_id: String,
    pub order_id: String,
    pub client_request_key: Option<String>,
}

pub fn fulfilment(locker: Arc<Locker>, shop: crate::shop::Shop) -> ServableFn<OrderPlaced, eyre::Error> {
    create_function(
        FunctionOps { id: "fulfil-order".to_string(), ..Default::default() },
        Trigger::EventTrigger { event: "shop/order.placed".to_string(), expression: None },
        move |input: Input<OrderPlaced>, step: Step| {
            let locker = locker.clone();
            let shop = shop.clone();
            async move {
                let evt: &Event<OrderPlaced> = &input.event;
                let data = &evt.data;
                let event_id = evt.id.clone().unwrap_or_default();
                let sk = scoped_server(&data.tenant_id, &data.user_id, "fulfil", &event_id)?;
                if locker.exists(sk.storage_key()).await? {
                    return Ok(serde_json::Value::Null);
                }
                if sk.namespace() != Namespace::Server {
                    eyre::bail!("unexpected namespace");
                }
                step.run("ship", || async { shop.ship(&data.order_id).await }).await?;
                locker.put(sk.storage_key(), b"shipped", Duration::from_secs(7 * 86_400)).await?;
                Ok(serde_json::Value::Null)
            }
        },
    )
}

pub async fn mirror_client_key(locker: &Locker, data: &OrderPlaced, response: &[u8]) -> eyre::Result<()> {
    if let Some(k) = data.client_request_key.as_deref() {
        let sk = scoped(&data.tenant_id, &data.user_id, "fulfil", k)?;
        locker.put(sk.storage_key(), response, Duration::from_secs(86_400)).await?;
    }
    tracing::debug!(order = %data.order_id, "mirrored client key");
    Ok(())
}
