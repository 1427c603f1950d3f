use std::sync::Arc;

use idem_scope::{scoped, Problem};
use ledgerkit::idem::ReplayStore;
use volo_grpc::{Request, Response, Status};

use crate::gen::billing::{CreateSubscriptionRequest, Subscription, SubscriptionService};

#[derive(Clone)]
pub struct Subscriptions {
    replay: Arc<ReplayStore>,
    upstream_base: String,
}

fn meta<'a, T>(req: &'a Request<T>, name: &str) -> Option<&'a str> {
    req.metadata().get(name).and_then(|v| v.to_str().ok())
}

impl SubscriptionService for Subscriptions {
    async fn create_subscription(
        &self,
        req: Request<CreateSubscriptionRequest>,
    ) -> Result<Response<Subscription>, Status> {
        let tenant = meta(&req, "x-tenant-id").unwrap_or("global");
        let caller_id = meta(&req, "x-caller-id").ok_or_else(|| Status::unauthenticated("caller"))?;
        let key = meta(&req, "idempotency-key")
            .ok_or_else(|| Status::invalid_argument(Problem::missing_key().to_json()))?
            .to_owned();

        let sk = scoped(tenant, caller_id, "CreateSubscription", &key)
            .map_err(|e| Status::invalid_argument(e.to_string()))?;
        if let Some(prev) = self.replay.load::<Subscription>(&sk).await.map_err(|e| Status::internal(e.to_string()))? {
            return Ok(Response::new(prev));
        }

        let msg = req.into_inner();
        let resp = ureq::post(&format!("{}/subscriptions", self.upstream_base))
            .header("Idempotency-Key", &key)
            .header("X-Tenant", tenant)
            .send_json(&msg.plan)
            .map_err(|e| Status::unavailable(e.to_string()))?;
        let sub: Subscription = resp
            .into_body()
            .read_json()
            .map_err(|e| Status::internal(e.to_string()))?;

        self.replay.save(&sk, &sub).await.map_err(|e| Status::internal(e.to_string()))?;
        Ok(Response::new(sub))
    }
}
