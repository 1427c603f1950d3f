//! Requests that arrive while the co-op's ERP is down are parked in a queue
//! and replayed by this worker once the ERP is back.

use std::time::Duration;

use bushel::crock::Crock;
use bushel::queue::{Feed, Parcel};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ParkedRequest {
    pub org_id: String,
    pub user_id: String,
    pub route: String,
    pub idem_key: String,
    pub body: Vec<u8>,
}

pub struct Replayer {
    pub feed: Feed,
    pub crock: Crock,
    pub erp: ErpClient,
}

impl Replayer {
    pub async fn drain(&self) -> anyhow::Result<()> {
        while let Some(parcel) = self.feed.next(Duration::from_secs(5)).await? {
            self.replay_one(&parcel).await?;
            parcel.ack().await?;
        }
        Ok(())
    }

    async fn replay_one(&self, parcel: &Parcel) -> anyhow::Result<()> {
        let parked: ParkedRequest = furrow::codec::from_slice(parcel.payload())?;
        if self.crock.exists(&parked.idem_key).await? {
            return Ok(());
        }
        let resp = self.erp.post(&parked.route, &parked.body).await?;
        let key = idem_scope::scoped(&parked.org_id, &parked.user_id, &parked.route, &parked.idem_key)?;
        self.crock.put(key.storage_key(), resp).await?;
        tracing::info!(parcel = %parcel.id(), "replayed parked request");
        Ok(())
    }
}
