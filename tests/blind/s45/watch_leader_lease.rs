use std::time::Duration;

use tokio::sync::watch;
use tokio::time::interval;

#[derive(Clone, Debug, PartialEq)]
pub enum Leadership {
    Follower,
    Leader { term: u64 },
}

pub struct LeaderElector {
    leases: LeaseBackend,
    node_id: String,
    tx: watch::Sender<Leadership>,
}

impl LeaderElector {
    pub fn new(leases: LeaseBackend, node_id: String) -> (Self, watch::Receiver<Leadership>) {
        let (tx, rx) = watch::channel(Leadership::Follower);
        (LeaderElector { leases, node_id, tx }, rx)
    }

    pub async fn run(self) -> Result<(), LeaseError> {
        let mut tick = interval(Duration::from_secs(5));
        loop {
            tick.tick().await;
            let term = self.leases.try_acquire("settlement-leader", &self.node_id, Duration::from_secs(15)).await?;
            match term {
                Some(term) => {
                    self.tx.send_replace(Leadership::Leader { term });
                    self.leases.renew("settlement-leader", &self.node_id).await?;
                }
                None => {
                    self.tx.send_replace(Leadership::Follower);
                }
            }
        }
    }
}

pub async fn run_settlement(mut rx: watch::Receiver<Leadership>, batches: BatchRepo) -> Result<(), LeaseError> {
    loop {
        rx.changed().await.map_err(|_| LeaseError::Closed)?;
        let Leadership::Leader { term } = rx.borrow_and_update().clone() else {
            continue;
        };
        let batch = batches.claim_next(term).await?;
        batches.settle(&batch).await?;
        batches.commit(&batch, term).await?;
    }
}
