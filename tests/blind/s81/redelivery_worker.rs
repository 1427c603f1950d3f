//! Photo-package delivery. Guests re-request the download link from the
//! app; the redelivery worker retries failed deliveries from the
//! `photos.deliver` queue. Both write the same replay tank.

use driftnet::{Consumer, Parcel};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::{scoped, scoped_server};
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

const WORKER: &str = "svc-photo-delivery";

#[derive(Deserialize)]
struct DeliveryJob {
    org_id: String,
    user_id: String,
    package_id: String,
    email: String,
}

pub struct PhotoDelivery {
    replays: Tank,
    links: crate::photos::LinkSigner,
    mailer: crate::mail::Mailer,
}

impl PhotoDelivery {
    /// `POST /v1/photos/{package}/deliver`
    pub async fn request_link(&self, visit: Visit, caller: Caller) -> Result<Reply, Fault> {
        let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
        let package_id = visit.param("package").ok_or_else(|| Fault::not_found("package"))?;
        let slot = scoped(&caller.org_id, &caller.user_id, "photos.deliver", key).map_err(Fault::bad_request)?;
        if let Some(prev) = self.replays.get(slot.storage_key()).await? {
            return Ok(Reply::bytes(Status::OK, prev).replayed());
        }
        let link = self.links.sign(&caller.org_id, package_id)?;
        self.replays.put(slot.storage_key(), link.as_bytes()).await?;
        Ok(Reply::bytes(Status::OK, link.into_bytes()))
    }

    pub async fn run(&self, mut consumer: Consumer) -> Result<(), Fault> {
        while let Some(parcel) = consumer.next().await {
            match self.redeliver(&parcel).await {
                Ok(()) => parcel.ack().await?,
                Err(e) if parcel.attempt() < 5 => {
                    tracing::warn!(parcel = %parcel.id(), error = %e, "redelivery failed");
                    parcel.nack().await?;
                }
                Err(_) => parcel.dead_letter().await?,
            }
        }
        Ok(())
    }

    async fn redeliver(&self, parcel: &Parcel) -> Result<(), Fault> {
        let job: DeliveryJob = serde_json::from_slice(parcel.body()).map_err(Fault::bad_request)?;
        let slot = scoped(&job.org_id, WORKER, "photos.deliver", &["replay:", parcel.id()].concat()).map_err(Fault::internal)?;
        if self.replays.exists(slot.storage_key()).await? {
            return Ok(());
        }
        let link = self.links.sign(&job.org_id, &job.package_id)?;
        self.mailer.photo_link(&job.email, &link).await?;
        self.replays.put(slot.storage_key(), link.as_bytes()).await?;
        let audit = scoped_server(&job.org_id, &job.user_id, "photos.deliver.audit", parcel.id()).map_err(Fault::internal)?;
        self.replays.put(audit.storage_key(), b"delivered").await?;
        Ok(())
    }
}
