use std::collections::HashSet;

use google_pubsub1::api::{AcknowledgeRequest, PullRequest, ReceivedMessage};
use google_pubsub1::Pubsub;
use serde::Deserialize;
use sluice::kv::{Bucket, Entry};

use crate::ledger::{apply_command, LedgerCommand};

#[derive(Deserialize)]
struct CommandEnvelope {
    tenant_id: String,
    user_id: String,
    idem_key: String,
    command: LedgerCommand,
}

pub struct CommandPuller<C> {
    hub: Pubsub<C>,
    subscription: String,
    results: Bucket,
    seen_messages: HashSet<String>,
}

impl<C> CommandPuller<C> {
    pub async fn pull_once(&mut self) -> anyhow::Result<usize> {
        let req = PullRequest { max_messages: Some(50), ..Default::default() };
        let (_, resp) = self.hub.projects().subscriptions_pull(req, &self.subscription).doit().await?;
        let received: Vec<ReceivedMessage> = resp.received_messages.unwrap_or_default();
        let mut acks = Vec::with_capacity(received.len());
        for rm in received {
            let Some(msg) = rm.message else { continue };
            let message_id = msg.message_id.clone().unwrap_or_default();
            if !self.seen_messages.insert(message_id.clone()) {
                acks.extend(rm.ack_id);
                continue;
            }
            let env: CommandEnvelope = match serde_json::from_slice(msg.data.as_deref().unwrap_or_default()) {
                Ok(e) => e,
                Err(err) => {
                    tracing::warn!(%message_id, %err, "undecodable ledger command");
                    acks.extend(rm.ack_id);
                    continue;
                }
            };
            match self.results.entry(&env.idem_key).await? {
                Entry::Occupied(_) => {}
                Entry::Vacant(slot) => {
                    let outcome = apply_command(&env.tenant_id, &env.user_id, &env.command).await?;
                    slot.insert(serde_json::to_vec(&outcome)?).await?;
                }
            }
            acks.extend(rm.ack_id);
        }
        let n = acks.len();
        if n > 0 {
            let ack = AcknowledgeRequest { ack_ids: Some(acks) };
            self.hub.projects().subscriptions_acknowledge(ack, &self.subscription).doit().await?;
        }
        Ok(n)
    }
}
