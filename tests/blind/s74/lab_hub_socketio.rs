//! Connection to the analyzer hub in each clinic (Socket.IO), plus the
//! bench endpoint that lets a technician re-run a result by hand.

use std::sync::Arc;

use idem_scope::{scoped, Problem};
use rust_socketio::{ClientBuilder, Payload, RawClient};
use serde::Deserialize;
use serde_json::json;
use silage::bunker::BlockingBunker;
use stirrup::creds::Staff;
use stirrup::plain::{Inbound, Sendback};

pub struct HubLink {
    pub org_id: String,
    pub hub_url: String,
    pub kv: Arc<BlockingBunker>,
    pub charts: Arc<crate::labresults::BlockingFiler>,
}

#[derive(Deserialize)]
struct HubResult {
    event_id: String,
    analyzer: String,
    sample_id: String,
    values: serde_json::Value,
}

impl HubLink {
    pub fn connect(&self) -> Result<rust_socketio::client::Client, rust_socketio::Error> {
        let kv = Arc::clone(&self.kv);
        let charts = Arc::clone(&self.charts);
        let org = self.org_id.clone();
        ClientBuilder::new(self.hub_url.as_str())
            .namespace("/results")
            .on("result", move |payload: Payload, socket: RawClient| {
                let Payload::Text(values) = payload else { return };
                let Some(first) = values.into_iter().next() else { return };
                let Ok(evt) = serde_json::from_value::<HubResult>(first) else { return };
                let Ok(key) = scoped(&org, &evt.analyzer, "/hub/results", &evt.event_id) else { return };
                if matches!(kv.exists(key.storage_key()), Ok(true)) {
                    let _ = socket.emit("ack", json!({ "event_id": evt.event_id, "duplicate": true }));
                    return;
                }
                if charts.file_values(&org, &evt.sample_id, &evt.values).is_ok() {
                    let _ = kv.put(key.storage_key(), b"filed".to_vec());
                    let _ = socket.emit("ack", json!({ "event_id": evt.event_id }));
                }
            })
            .connect()
    }

    /// Bench endpoint: re-file a result the hub dropped.
    pub fn rerun(&self, inb: &Inbound, staff: &Staff) -> Sendback {
        let Some(k) = inb.header("Idempotency-Key") else {
            return Sendback::problem(Problem::missing_key());
        };
        let key = match scoped(&staff.org_id, &staff.user_id, "/v1/lab/hub/rerun", k) {
            Ok(key) => key,
            Err(e) => return Sendback::problem(Problem::invalid_key(&e.to_string())),
        };
        if matches!(self.kv.exists(key.storage_key()), Ok(true)) {
            return Sendback::json(200, &"already filed");
        }
        let Ok(req) = serde_json::from_slice::<HubResult>(inb.body()) else {
            return Sendback::bad_request("expected a hub result");
        };
        match self.charts.file_values(&staff.org_id, &req.sample_id, &req.values) {
            Ok(()) => {
                let _ = self.kv.put(key.storage_key(), b"filed".to_vec());
                Sendback::json(201, &"filed")
            }
            Err(e) => Sendback::error(&e.to_string()),
        }
    }
}
