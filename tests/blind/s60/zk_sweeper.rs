use std::time::Duration;

use anyhow::Result;
use pyxis::kv::Shelf;
use tracing::{debug, info};
use uuid::Uuid;
use zookeeper_client::{Acls, Client, CreateMode, LockOptions, LockPrefix};

pub struct SweeperConfig {
    pub zk_cluster: String,
    pub zk_chroot: Option<String>,
    pub batch: usize,
}

pub struct Sweeper {
    zk: Client,
    records: Shelf,
    owner: String,
    batch: usize,
}

impl Sweeper {
    pub async fn connect(cfg: &SweeperConfig, records: Shelf) -> Result<Self> {
        let chroot = cfg.zk_chroot.as_deref().unwrap_or("default");
        let zk = Client::connector()
            .namespace(format!("/{chroot}"))
            .session_timeout(Duration::from_secs(10))
            .connect(&cfg.zk_cluster)
            .await?;
        let owner = Uuid::new_v4().to_string();
        zk.create(
            &format!("/sweepers/{owner}"),
            owner.as_bytes(),
            &CreateMode::Ephemeral.with_acls(Acls::anyone_all()),
        )
        .await?;
        Ok(Self { zk, records, owner, batch: cfg.batch })
    }

    /// One sweep of expired replay records; only one sweeper runs at a time.
    pub async fn sweep_once(&self) -> Result<usize> {
        let prefix = LockPrefix::new_curator("/locks/replay-sweeper", "lock-")?;
        let lock = self
            .zk
            .lock(prefix, self.owner.as_bytes(), LockOptions::new(Acls::anyone_all()))
            .await?;
        info!(owner = %self.owner, "sweeper lock held");

        let expired = self.records.scan_expired(self.batch).await?;
        let mut removed = 0;
        for k in expired {
            self.records.remove(&k).await?;
            removed += 1;
        }
        lock.client().sync("/").await?;
        debug!(removed, "sweep finished");
        Ok(removed)
    }

    pub async fn run(self) -> Result<()> {
        loop {
            match self.sweep_once().await {
                Ok(n) if n == self.batch => continue,
                Ok(_) => tokio::time::sleep(Duration::from_secs(30)).await,
                Err(e) => {
                    tracing::warn!(error = %e, "sweep failed");
                    tokio::time::sleep(Duration::from_secs(60)).await;
                }
            }
        }
    }
}
