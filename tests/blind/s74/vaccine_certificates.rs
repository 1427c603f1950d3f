//! Batch rendering of vaccination certificates (rabies, DHPP) for a household.

use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};
use tokio::task::JoinSet;

const LEASE: Duration = Duration::from_secs(180);

#[derive(Clone)]
pub struct Certificates {
    pub idem: Bunker,
    pub renderer: crate::pdf::Renderer,
}

#[derive(Deserialize)]
pub struct BatchIn {
    pub pet_ids: Vec<String>,
    pub locale: Option<String>,
}

pub async fn render_batch(
    inb: Inbound,
    staff: Staff,
    st: Shared<Certificates>,
    JsonIn(req): JsonIn<BatchIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/certificates/batch", k)?;
    let locale = req.locale.clone().unwrap_or_else(|| "en-US".to_owned());

    let mut tasks = JoinSet::new();
    let store = st.idem.clone();
    let renderer = st.renderer.clone();
    tasks.spawn(async move {
        if !store.claim(key.storage_key(), LEASE).await? {
            return Ok(None);
        }
        let pdf = renderer.render_batch(&req.pet_ids, &locale).await.unwrap();
        store.complete(key.storage_key(), &pdf).await?;
        Ok::<_, silage::StoreError>(Some(pdf))
    });

    match tasks.join_next().await {
        Some(Ok(Ok(Some(pdf)))) => Ok(Sendback::bytes(Code::Created, "application/pdf", pdf)),
        Some(Ok(Ok(None))) => Ok(Sendback::problem(Problem::in_progress(k))),
        _ => Ok(Sendback::status(Code::InternalServerError)),
    }
}

/// Single certificate: the claim is held by a guard that releases on drop.
pub async fn render_one(
    inb: Inbound,
    staff: Staff,
    st: Shared<Certificates>,
    pet_id: String,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/certificates", k)?;
    if !st.idem.claim(key.storage_key(), LEASE).await? {
        return Ok(Sendback::problem(Problem::in_progress(k)));
    }
    let release_store = st.idem.clone();
    let release_key = key.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = release_store.release(&release_key).await;
        });
    });
    let pdf = st.renderer.render_one(&staff.org_id, &pet_id).await?;
    st.idem.complete(key.storage_key(), &pdf).await?;
    guard.complete();
    Ok(Sendback::bytes(Code::Created, "application/pdf", pdf))
}
