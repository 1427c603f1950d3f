use etcd_client::{Client, Error, LockOptions, PutOptions};
use std::time::Duration;
use uuid::Uuid;

pub struct Membership {
    pub client: Client,
    pub node_id: String,
    pub lease_id: i64,
}

impl Membership {
    pub async fn join(mut client: Client, cluster: &str) -> Result<Self, Error> {
        let node_id = Uuid::new_v4().to_string();
        let lease = client.lease_grant(15, None).await?;
        let path = format!("/clusters/{}/members/{}", cluster, node_id);
        client.put(path, "alive", Some(PutOptions::new().with_lease(lease.id()))).await?;
        Ok(Self { client, node_id, lease_id: lease.id() })
    }

    pub async fn lead<F, Fut>(&mut self, cluster: &str, work: F) -> Result<(), Error>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<(), Error>>,
    {
        let name = format!("/clusters/{}/leader", cluster);
        let held = self.client.lock(name, Some(LockOptions::new().with_lease(self.lease_id))).await?;
        work().await?;
        self.client.put(format!("/clusters/{}/last-run", cluster), self.node_id.as_str(), None).await?;
        self.client.unlock(held.key()).await?;
        Ok(())
    }

    pub async fn heartbeat(&mut self) -> Result<(), Error> {
        loop {
            let (mut keeper, _stream) = self.client.lease_keep_alive(self.lease_id).await?;
            keeper.keep_alive().await?;
            async_std::task::sleep(Duration::from_secs(5)).await;
        }
    }
}
