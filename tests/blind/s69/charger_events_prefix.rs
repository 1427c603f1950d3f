//! Charger status events from the OCPP gateway are stored next to
//! client-initiated status changes so the app can show one timeline.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub struct Timeline {
    pub entries: Bin,
    pub offsets: Bin,
}

impl Timeline {
    pub async fn set_availability(&self, cx: Cx, who: Identity) -> Reply {
        let Some(key) = cx.header("Idempotency-Key") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/chargers/availability", key) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        if self.entries.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Code::OK);
        }
        crate::chargers::set_availability(&who.org_id, cx.body_bytes()).await;
        let _ = self.entries.put(sk.storage_key(), b"set").await;
        Reply::status(Code::OK)
    }

    pub async fn on_gateway_event(&self, org_id: &str, caller_id: &str, event_id: &str, seq: u64, payload: &[u8]) {
        let server_key = format!("evt-{event_id}");
        let Ok(sk) = scoped(org_id, caller_id, "/v1/chargers/availability", &server_key) else {
            return;
        };
        if self.entries.exists(sk.storage_key()).await.unwrap_or(false) {
            return;
        }
        crate::chargers::apply_event(org_id, payload).await;
        let _ = self.entries.put(sk.storage_key(), b"applied").await;
        let _ = self.offsets.put(&format!("gateway/{org_id}"), &seq.to_be_bytes()).await;
    }

    pub async fn on_gateway_heartbeat(&self, org_id: &str, caller_id: &str, event_id: &str) {
        let Ok(sk) = scoped(org_id, caller_id, "/v1/chargers/heartbeat", &format!("s:{event_id}")) else {
            return;
        };
        let _ = self.entries.put(sk.storage_key(), b"hb").await;
    }
}
