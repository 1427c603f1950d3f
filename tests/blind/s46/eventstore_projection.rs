use eventstore::{Client, ResolvedEvent, SubscribeToAllOptions};
use std::collections::BTreeMap;
use tokio::sync::Mutex;

pub struct Projector {
    client: Client,
    processed: Mutex<BTreeMap<String, u64>>,
}

impl Projector {
    pub async fn run(&self) -> eventstore::Result<()> {
        let mut sub = self.client.subscribe_to_all(&SubscribeToAllOptions::default()).await;
        loop {
            let ev: ResolvedEvent = sub.next().await?;
            let recorded = ev.get_original_event();
            let marker = format!("projection:{}", recorded.id);
            let mut seen = self.processed.lock().await;
            if seen.contains_key(&marker) {
                continue;
            }
            seen.insert(marker, recorded.revision);
        }
    }
}
