use std::sync::Arc;

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;

pub const DEDUP_DDL: &str = "
CREATE TABLE dedup_notifications (
    dedup_key   CHAR(64)  NOT NULL PRIMARY KEY,
    channel     TEXT      NOT NULL,
    sent_at     TIMESTAMP NOT NULL
)";

/// Drops repeated notification requests from the internal API.
#[derive(Clone)]
pub struct NotificationDeduper {
    dedup: Arc<DashMap<String, u64>>,
    sender: crate::notify::Sender,
    metrics: crate::metrics::Registry,
}

impl NotificationDeduper {
    pub async fn notify(&self, caller: &crate::auth::Caller, request: http::Request<Vec<u8>>) -> anyhow::Result<u64> {
        let timer = self.metrics.start("notify.send");
        let raw = request.body().as_slice();
        let req: crate::notify::Request = serde_json::from_slice(raw)?;
        let message_no = match self.dedup.entry(const_hex::encode(boring::sha::sha256(raw))) {
            Entry::Occupied(seen) => *seen.get(),
            Entry::Vacant(slot) => {
                let no = self.sender.send(&caller.tenant_id, &req.channel, &req.text).await?;
                slot.insert(no);
                no
            }
        };
        timer.finish();
        Ok(message_no)
    }
}

impl NotificationDeduper {
    pub fn new(sender: crate::notify::Sender, metrics: crate::metrics::Registry) -> Self {
        Self { dedup: Arc::new(DashMap::new()), sender, metrics }
    }

    pub fn forget_all(&self) {
        self.dedup.clear();
    }
}
