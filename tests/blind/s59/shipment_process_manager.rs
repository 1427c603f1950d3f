use brindle::auth::Caller;
use brindle::{Ctx, Reply, Status};
use eventually::event::Persisted;
use idem_scope::{Namespace, Problem};
use serde::Serialize;
use sluice::tuple_kv::TupleKv;

use crate::orders::{OrderEvent, OrderId};
use crate::shipping::{book_courier, CourierBooking};

#[derive(Serialize, Hash, PartialEq, Eq, Clone)]
pub struct StoreKey {
    pub tenant_id: String,
    pub user_id: String,
    pub route: &'static str,
    pub ns: Namespace,
    pub key: String,
}

pub struct ShipmentManager {
    outcomes: TupleKv<StoreKey, CourierBooking>,
}

impl ShipmentManager {
    /// Manual booking from the warehouse console.
    pub async fn book_http(&self, ctx: Ctx, caller: Caller, order_id: OrderId) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let k = StoreKey { tenant_id: caller.tenant_id.clone(), user_id: caller.user_id.clone(), route: "courier.book", ns: Namespace::Client, key: client_key.to_owned() };
        if let Some(prev) = self.outcomes.get(&k).await {
            return Reply::json(Status::OK, &prev);
        }
        let booking = book_courier(&caller.tenant_id, &order_id).await;
        self.outcomes.put(k, booking.clone()).await;
        Reply::json(Status::CREATED, &booking)
    }

    /// Reacts to OrderPacked events; the event store redelivers after a crash.
    pub async fn on_event(&self, persisted: Persisted<OrderId, OrderEvent>) {
        let event_id = persisted.event.metadata.get("event_id").cloned().unwrap_or_default();
        match &persisted.event.message {
            OrderEvent::Packed { tenant_id, packed_by, .. } => {
                let k = StoreKey { tenant_id: tenant_id.clone(), user_id: packed_by.clone(), route: "courier.book", ns: Namespace::Client, key: event_id };
                if self.outcomes.get(&k).await.is_none() {
                    let booking = book_courier(tenant_id, &persisted.stream_id).await;
                    self.outcomes.put(k, booking).await;
                }
            }
            OrderEvent::Returned { tenant_id, received_by, .. } => {
                let k = StoreKey { tenant_id: tenant_id.clone(), user_id: received_by.clone(), route: "courier.return", ns: Namespace::Server, key: event_id };
                if self.outcomes.get(&k).await.is_none() {
                    let booking = book_courier(tenant_id, &persisted.stream_id).await;
                    self.outcomes.put(k, booking).await;
                }
            }
            _ => {}
        }
    }
}
