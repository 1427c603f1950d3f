use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::Mutex;

pub struct SnapshotService {
    per_volume: Mutex<BTreeMap<String, Arc<Mutex<()>>>>,
}

async fn take_snapshot(volume: &str) -> Result<String, String> {
    if volume.is_empty() {
        return Err("no volume".into());
    }
    Ok(format!("snap-{volume}"))
}

impl SnapshotService {
    pub async fn snapshot(&self, volume: String) -> Result<String, String> {
        let lock = {
            let mut m = self.per_volume.lock().await;
            m.entry(volume.clone()).or_default().clone()
        };
        let _held = lock.lock().await;
        let id = take_snapshot(&volume).await?;
        Ok(id)
    }
}
