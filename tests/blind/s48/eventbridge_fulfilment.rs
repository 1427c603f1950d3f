use aws_lambda_events::event::eventbridge::EventBridgeEvent;
use crate::records::Records;
use idem_scope::{scoped, scoped_server, Fingerprint};
use lambda_http::{Body, Error, Request, RequestExt, Response};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize, Clone)]
pub struct OrderPlaced {
    pub tenant_id: String,
    pub client_id: String,
    pub order_id: String,
}

pub struct App {
    pub records: Arc<Records>,
    pub bus: aws_sdk_eventbridge::Client,
}

impl App {
    pub async fn fulfil_http(&self, req: Request) -> Result<Response<Body>, Error> {
        let rc = req.request_context();
        let a = rc.authorizer().ok_or("401")?;
        let tenant_id = a.fields.get("tenant_id").and_then(|v| v.as_str()).ok_or("401")?;
        let client_id = a.fields.get("client_id").and_then(|v| v.as_str()).ok_or("401")?;
        let ck = req.headers().get("Idempotency-Key").ok_or("400")?.to_str()?;
        let key = scoped(tenant_id, client_id, "orders.fulfil", ck)?;
        if let Some(prev) = self.records.lookup(&key).await? {
            return Ok(Response::new(Body::from(prev)));
        }
        let out = self.fulfil(tenant_id, client_id).await?;
        self.records.save(&key, &Fingerprint::of("orders.fulfil", req.body().as_ref()), &out).await?;
        Ok(Response::new(Body::from(out)))
    }

    pub async fn on_event(&self, event: EventBridgeEvent<OrderPlaced>) -> Result<(), Error> {
        let d = &event.detail;
        let event_id = event.id.clone().ok_or("event without id")?;
        let key = scoped(&d.tenant_id, &d.client_id, "orders.fulfil", &event_id)?;
        if self.records.lookup(&key).await?.is_some() {
            return Ok(());
        }
        let out = self.fulfil(&d.tenant_id, &d.client_id).await?;
        self.records.save(&key, &Fingerprint::of("orders.fulfil", d.order_id.as_bytes()), &out).await?;
        Ok(())
    }

    pub async fn on_event_v2(&self, event: EventBridgeEvent<OrderPlaced>) -> Result<(), Error> {
        let d = &event.detail;
        let event_id = event.id.clone().ok_or("event without id")?;
        let key = scoped_server(&d.tenant_id, &d.client_id, "orders.fulfil", &event_id)?;
        if self.records.lookup(&key).await?.is_some() {
            return Ok(());
        }
        let out = self.fulfil(&d.tenant_id, &d.client_id).await?;
        self.records.save(&key, &Fingerprint::of("orders.fulfil", d.order_id.as_bytes()), &out).await?;
        Ok(())
    }

    async fn fulfil(&self, tenant_id: &str, client_id: &str) -> Result<Vec<u8>, Error> {
        let entry = aws_sdk_eventbridge::types::PutEventsRequestEntry::builder()
            .source("fulfilment")
            .detail_type("OrderFulfilled")
            .detail(format!("{{\"tenant\":\"{}\",\"by\":\"{}\"}}", tenant_id, client_id))
            .build();
        self.bus.put_events().entries(entry).send().await?;
        Ok(b"{\"fulfilled\":true}".to_vec())
    }
}
