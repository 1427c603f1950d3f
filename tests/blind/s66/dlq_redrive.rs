use std::sync::Arc;
use std::time::Duration;

use gannet::dlq::{DeadLetter, DeadLetterQueue};
use idem_scope::{scoped_server, ScopedKey};
use skerry::stash::Stash;
use slog::{warn, Logger};

use crate::payments::{Gateway, PaymentCommand};

/// Operator-triggered redrive of dead-lettered payment commands. Redriven
/// commands share the payment stash with API requests.
pub struct DlqRedrive {
    stash: Arc<Stash>,
    dlq: Arc<DeadLetterQueue>,
    gateway: Arc<Gateway>,
    log: Logger,
}

impl DlqRedrive {
    fn redrive_slot(letter: &DeadLetter, cmd: &PaymentCommand) -> Option<ScopedKey> {
        let redrive_id = format!("{}#{}", letter.event_id(), letter.redrive_count());
        scoped_server(&cmd.tenant_id, &cmd.user_id, &cmd.route, &redrive_id).ok()
    }

    pub async fn redrive(&self, limit: usize) -> usize {
        let mut done = 0;
        for letter in self.dlq.peek(limit).await {
            let Ok(cmd) = PaymentCommand::decode(letter.body()) else {
                warn!(self.log, "undecodable dead letter"; "event" => letter.event_id());
                continue;
            };
            let Some(slot) = Self::redrive_slot(&letter, &cmd) else { continue };
            match self.stash.claim(slot.storage_key(), Duration::from_secs(60)).await {
                Ok(true) => {}
                _ => continue,
            }
            match self.gateway.execute(&cmd).await {
                Ok(result) => {
                    let _ = self.stash.complete(slot.storage_key(), &result.encode()).await;
                    self.dlq.remove(&letter).await;
                    done += 1;
                }
                Err(e) => {
                    let _ = self.stash.abort(slot.storage_key()).await;
                    warn!(self.log, "redrive failed"; "event" => letter.event_id(), "error" => %e);
                }
            }
        }
        done
    }
}
