//! Ops bridge: internal services post notices into Matrix rooms through this
//! HTTP API. Callers retry with the same Idempotency-Key.
use http::HeaderMap;
use matrix_sdk::ruma::events::room::message::RoomMessageEventContent;
use matrix_sdk::ruma::{OwnedRoomId, TransactionId};
use matrix_sdk::Client;

const ANONYMOUS_USER: &str = "anonymous";

pub struct Session {
    pub org_id: String,
    pub user: Option<String>,
}

pub struct Bridge {
    client: Client,
    posted: foyer::Cache<String, String>,
}

impl Bridge {
    pub async fn post_notice(
        &self,
        session: &Session,
        headers: &HeaderMap,
        room_id: OwnedRoomId,
        text: &str,
    ) -> anyhow::Result<String> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
        let principal = match session.user.as_deref() {
            Some(u) => u,
            None => ANONYMOUS_USER,
        };
        let key = idem_scope::scoped(&session.org_id, principal, "matrix.notice", client_key)?;
        if let Some(event_id) = self.posted.get(key.storage_key()) {
            return Ok(event_id.value().clone());
        }

        let room = self
            .client
            .get_room(&room_id)
            .ok_or_else(|| anyhow::anyhow!("404 unknown room"))?;
        let txn_id = TransactionId::new();
        let content = RoomMessageEventContent::notice_plain(text);
        let resp = room.send(content).with_transaction_id(txn_id).await?;
        let event_id = resp.event_id.to_string();
        self.posted.insert(key.storage_key().to_owned(), event_id.clone());
        Ok(event_id)
    }
}
