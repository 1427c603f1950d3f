//! Remote feeder and water-bowl commands for boarded pets (kennel gateway).

use std::time::Duration;

use idem_scope::{scoped, Problem, ScopedKey};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};
use tokio::sync::Mutex;

const LEASE: Duration = Duration::from_secs(30);

pub struct Feeders {
    pub idem: Bunker,
    pub gateway: Mutex<crate::kennels::GatewayLink>,
}

/// Holds an idempotency claim; dropping it without `done()` releases it.
struct Held<'a> {
    store: &'a Bunker,
    key: Option<ScopedKey>,
}

impl<'a> Held<'a> {
    fn done(mut self) {
        self.key = None;
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            let store = self.store.clone();
            tokio::spawn(async move {
                let _ = store.release(key.storage_key()).await;
            });
        }
    }
}

#[derive(Deserialize)]
pub struct FeedIn {
    pub run_id: String,
    pub grams: u16,
}

pub async fn dispense(
    inb: Inbound,
    staff: Staff,
    st: Shared<Feeders>,
    JsonIn(req): JsonIn<FeedIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/kennels/feeders/dispense", k)?;
    if !st.idem.claim(key.storage_key(), LEASE).await? {
        return Ok(Sendback::problem(Problem::in_progress(k)));
    }
    let held = Held { store: &st.idem, key: Some(key.clone()) };

    let mut link = st.gateway.lock().await;
    let ack = link.dispense(&req.run_id, req.grams).await?;
    drop(link);

    let body = serde_json::to_vec(&ack)?;
    st.idem.complete(key.storage_key(), &body).await?;
    held.done();
    Ok(Sendback::raw_json(Code::Ok, body))
}
