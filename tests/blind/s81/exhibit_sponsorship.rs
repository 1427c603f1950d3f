//! Corporate exhibit sponsorships ("The Otter Cove, presented by ...").
//! Sponsors pay installments from the sponsor portal; the CRM pushes
//! installment events for sponsors who pay by invoice, and the sync below
//! records them in the same installment tank.

use driftnet::Consumer;
use enclosure::extract::{Json, Shared};
use enclosure::pass::Partner;
use enclosure::{Fault, Reply, Status, Visit};
use futures::StreamExt;
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct InstallmentRequest {
    sponsorship_id: String,
    amount_cents: u64,
}

#[derive(Deserialize)]
struct CrmInstallment {
    event_id: String,
    org_id: String,
    client_id: String,
    sponsorship_id: String,
    amount_cents: u64,
}

#[derive(Clone)]
pub struct Sponsorships {
    pub installments: Tank,
    pub ledger: crate::sponsors::Ledger,
}

/// `POST /v1/sponsorships/installments`
pub async fn pay_installment(visit: Visit, Shared(s): Shared<Sponsorships>, partner: Partner, Json(req): Json<InstallmentRequest>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let slot = scoped(&partner.org_id, &partner.client_id, "sponsorships.installment", key).map_err(Fault::bad_request)?;
    if let Some(prev) = s.installments.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let receipt = s.ledger.pay(&partner.org_id, &req.sponsorship_id, req.amount_cents).await?;
    let body = serde_json::to_vec(&receipt).map_err(Fault::internal)?;
    s.installments.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

/// Drains the `crm.installments` stream, eight events at a time.
pub async fn sync_crm(s: Sponsorships, consumer: Consumer) {
    consumer
        .into_stream()
        .filter_map(|parcel| async move { serde_json::from_slice::<CrmInstallment>(parcel.body()).ok().map(|evt| (parcel, evt)) })
        .for_each_concurrent(8, |(parcel, evt)| {
            let s = s.clone();
            async move {
                let Ok(slot) = scoped(&evt.org_id, &evt.client_id, "sponsorships.installment", &evt.event_id) else {
                    let _ = parcel.dead_letter().await;
                    return;
                };
                match s.installments.exists(slot.storage_key()).await {
                    Ok(true) => {}
                    Ok(false) => {
                        if s.ledger.pay(&evt.org_id, &evt.sponsorship_id, evt.amount_cents).await.is_ok() {
                            let _ = s.installments.put(slot.storage_key(), b"crm").await;
                        }
                    }
                    Err(_) => {
                        let _ = parcel.nack().await;
                        return;
                    }
                }
                let _ = parcel.ack().await;
            }
        })
        .await;
}
