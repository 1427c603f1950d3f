use std::time::Duration;

use anyhow::{bail, Context};
use idem_scope::scoped_server;
use zookeeper::{Acl, CreateMode, WatchedEvent, Watcher, ZkError, ZooKeeper};

struct Quiet;
impl Watcher for Quiet {
    fn handle(&self, _e: WatchedEvent) {}
}

pub struct LeaderLease<'a> {
    zk: &'a ZooKeeper,
    path: String,
}

impl<'a> LeaderLease<'a> {
    pub fn acquire(zk: &'a ZooKeeper, job: &str) -> anyhow::Result<Option<Self>> {
        let path = format!("/leases/{job}");
        match zk.create(&path, vec![], Acl::open_unsafe().clone(), CreateMode::Ephemeral) {
            Ok(_) => Ok(Some(LeaderLease { zk, path })),
            Err(ZkError::NodeExists) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    pub fn release(self) -> anyhow::Result<()> {
        self.zk.delete(&self.path, None).context("drop lease")
    }
}

pub fn nightly_settlement(zk_hosts: &str, books: &crate::books::Books, replays: &crate::replay_store::BlockingStore) -> anyhow::Result<()> {
    let zk = ZooKeeper::connect(zk_hosts, Duration::from_secs(15), Quiet)?;
    let Some(lease) = LeaderLease::acquire(&zk, "nightly-settlement")? else {
        log::info!("another node holds the settlement lease");
        return Ok(());
    };

    let day = chrono::Utc::now().date_naive().pred_opt().context("calendar")?;
    let batches = books.unsettled_batches(day)?;
    if batches.len() > 10_000 {
        bail!("refusing to settle {} batches in one run", batches.len());
    }
    for batch in &batches {
        let sk = scoped_server(&batch.org_id, &batch.actor, "settlement.post", &batch.batch_id)?;
        if replays.lookup(&sk)?.is_some() {
            continue;
        }
        let posted = books.post_settlement(batch)?;
        replays.put(&sk, &serde_json::to_vec(&posted)?)?;
    }

    lease.release()?;
    Ok(())
}
