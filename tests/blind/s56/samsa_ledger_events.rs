use std::sync::Arc;

use bytes::Bytes;
use dashmap::DashMap;
use futures::StreamExt;
use idem_scope::scoped;
use samsa::prelude::{ConsumerBuilder, TopicPartitionsBuilder};
use serde::Deserialize;

#[derive(Deserialize)]
struct LedgerEvent {
    event_id: String,
    org_id: String,
    entry: crate::ledger::Entry,
}

/// Admission table shared by the public API and the ledger event feed.
#[derive(Clone)]
pub struct Admissions {
    admitted: Arc<DashMap<String, Bytes>>,
}

impl Admissions {
    pub fn admit_request(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, body: Bytes) -> Result<bool, crate::Error> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or(crate::Error::MissingKey)?;
        let sk = scoped(&caller.org_id, &caller.user_id, "ledger.post", key)?;
        Ok(self.admitted.insert(sk.storage_key().to_owned(), body).is_none())
    }

    fn admit_events(&self, batch: &[LedgerEvent]) -> Vec<&LedgerEvent> {
        batch
            .iter()
            .filter(|evt| {
                let payload = Bytes::from(serde_json::to_vec(&evt.entry).unwrap_or_default());
                self.admitted.insert(evt.event_id.clone(), payload).is_none()
            })
            .collect()
    }

    pub async fn consume(&self, brokers: Vec<String>, ledger: crate::ledger::Ledger) -> Result<(), crate::Error> {
        let partitions = TopicPartitionsBuilder::new()
            .assign("ledger-events".to_string(), vec![0, 1, 2, 3])
            .build();
        let stream = ConsumerBuilder::new(brokers, partitions)
            .await?
            .build()
            .into_stream();
        tokio::pin!(stream);
        while let Some(batch) = stream.next().await {
            let records = batch?;
            let events: Vec<LedgerEvent> = records
                .iter()
                .filter_map(|r| serde_json::from_slice(&r.value).ok())
                .collect();
            for evt in self.admit_events(&events) {
                ledger.apply(&evt.org_id, &evt.entry).await?;
            }
        }
        Ok(())
    }
}
