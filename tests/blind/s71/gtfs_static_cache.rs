//! GTFS static feed cache: each agency's schedule zip is fetched nightly and
//! stored by content hash, so an unchanged feed is not processed again.

use hopper::bay::Bay;
use hopper::shelf::Shelf;

use crate::fetch::Fetcher;

pub struct GtfsCache {
    http: Fetcher,
    shelf: Shelf,
    versions: Bay,
}

impl GtfsCache {
    /// Returns `true` when a new feed version was stored.
    pub async fn refresh(&self, tenant_id: &str, url: &str) -> anyhow::Result<bool> {
        let zip = self.http.get(url).await?;
        let digest = iroh_blake3::hash(&zip);
        let object = format!("gtfs/{tenant_id}/{}.zip", digest.to_hex());
        if self.shelf.exists(tenant_id, &object).await? {
            return Ok(false);
        }
        self.shelf.put(tenant_id, &object, zip.to_vec()).await?;
        self.versions.put(&format!("{tenant_id}:current"), digest.as_bytes().to_vec()).await?;
        tracing::info!(tenant = %tenant_id, feed = %digest.to_hex(), "new GTFS feed stored");
        Ok(true)
    }
}
