use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, scoped_server, Problem};
use ledgerkit::idem::{Claimed, IdemStore};
use ledgerkit::webhooks::{Delivery, DeliveryLog, Event};

pub struct Outbound {
    idem: Arc<IdemStore>,
    log: Arc<DeliveryLog>,
    http: Arc<signer::SignedClient>,
}

impl Outbound {
    /// `POST /v1/events/{id}/send`: a customer asks us to push one event now.
    pub async fn send_on_request(&self, auth: &gatehouse::Auth, req: &gatehouse::http::Request, event: &Event) -> Result<Delivery, Problem> {
        let key = req.header_str("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sk = scoped(&auth.tenant_id, &auth.user_id, "events.send", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.deliver_once(&sk, event).await
    }

    /// First delivery, driven by the outbox.
    pub async fn deliver_initial(&self, event: &Event) -> Result<Delivery, Problem> {
        let sk = scoped_server(&event.tenant_id, &event.principal_id, "events.deliver", &event.id)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.deliver_once(&sk, event).await
    }

    /// Retry ladder for failed deliveries.
    pub async fn redeliver(&self, failed: &Delivery) -> Result<Delivery, Problem> {
        let event = self.log.event(&failed.event_id).await?;
        let sk = scoped(&event.tenant_id, &event.principal_id, "events.deliver", &failed.delivery_id)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.deliver_once(&sk, &event).await
    }

    async fn deliver_once(&self, sk: &idem_scope::ScopedKey, event: &Event) -> Result<Delivery, Problem> {
        match self.idem.claim(sk, Duration::from_secs(30)).await {
            Ok(Claimed::New) => {}
            Ok(Claimed::Existing(_, Some(prev))) => return Ok(prev.decode()?),
            Ok(Claimed::Existing(_, None)) => return Err(Problem::in_progress(&event.id)),
            Err(e) => return Err(e.into()),
        }
        match self.http.post_event(event).await {
            Ok(d) => {
                self.idem.complete(sk, &d.encode()).await?;
                Ok(d)
            }
            Err(e) => {
                self.idem.release(sk).await?;
                Err(e.into())
            }
        }
    }
}
