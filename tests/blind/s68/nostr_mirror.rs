use std::sync::Arc;

use cobble::vault::Vault;
use idem_scope::{scoped, scoped_server, Problem};
use nostr_sdk::prelude::{Client, Event, Kind, RelayPoolNotification};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct Mirror {
    pub vault: Arc<Vault>,
    pub workspace_id: String,
}

impl Mirror {
    pub async fn publish(&self, ex: Exchange, caller: Caller, note: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "note.publish", raw)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        self.vault.put(sk.storage_key(), note.as_bytes()).await.map_err(|_| Reply::status(Status::BadGateway))?;
        Ok(Reply::status(Status::Accepted))
    }

    pub async fn follow(&self, client: Client) -> anyhow::Result<()> {
        let mut notifications = client.notifications();
        while let Ok(n) = notifications.recv().await {
            if let RelayPoolNotification::Event { event, .. } = n {
                self.mirror_one(&event).await?;
            }
        }
        Ok(())
    }

    async fn mirror_one(&self, event: &Event) -> anyhow::Result<()> {
        if event.kind != Kind::TextNote {
            return Ok(());
        }
        let event_id = event.id.to_hex();
        let author = event.pubkey.to_hex();
        let sk = scoped_server(&self.workspace_id, &author, "note.mirror", &event_id)?;
        if self.vault.exists(sk.storage_key()).await? {
            return Ok(());
        }
        self.vault.put(sk.storage_key(), event.content.as_bytes()).await?;
        log::debug!("mirrored nostr event {event_id} from {author}");
        Ok(())
    }
}
