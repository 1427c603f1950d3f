use std::collections::HashMap;

use anyhow::{ensure, Context as _};
use idem_scope::scoped;
use serde::Deserialize;
use sluice::records::Records;

use crate::cards::{CardVault, ReissueReason};

/// One command as posted by the back-office console.
#[derive(Deserialize)]
pub struct Envelope {
    pub tenant_id: String,
    pub user_id: String,
    pub command: String,
    /// The client's Idempotency-Key for this command, as sent by the console.
    pub idempotency_key: String,
    pub args: serde_json::Value,
}

pub trait CommandHandler: Send + Sync {
    fn handle(&self, env: &Envelope) -> anyhow::Result<Vec<u8>>;
}

pub struct CommandBus {
    handlers: HashMap<&'static str, Box<dyn CommandHandler>>,
}

impl CommandBus {
    pub fn new(vault: CardVault, records: Records) -> Self {
        let mut handlers: HashMap<&'static str, Box<dyn CommandHandler>> = HashMap::new();
        handlers.insert("cards.reissue", Box::new(Reissue { vault: vault.clone(), records: records.clone() }));
        handlers.insert("cards.block", Box::new(Block { vault, records }));
        Self { handlers }
    }

    pub fn dispatch(&self, env: &Envelope) -> anyhow::Result<Vec<u8>> {
        let handler = self.handlers.get(env.command.as_str()).context("unknown command")?;
        handler.handle(env)
    }
}

struct Reissue {
    vault: CardVault,
    records: Records,
}

impl CommandHandler for Reissue {
    fn handle(&self, env: &Envelope) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&env.tenant_id, &env.user_id, "cards.reissue", &env.idempotency_key)?;
        if let Some(done) = self.records.completed(sk.storage_key())? {
            return Ok(done);
        }
        let card_id = env.args.get("card_id").and_then(|v| v.as_str()).context("card_id missing")?;
        let reason: ReissueReason = serde_json::from_value(env.args.get("reason").cloned().unwrap_or_default())?;

        self.records.mark_in_progress(sk.storage_key())?;
        let card = self.vault.load(&env.tenant_id, card_id)?;
        ensure!(card.is_active(), "card {card_id} is not active");
        let replacement = self.vault.reissue(&card, reason)?;
        let out = serde_json::to_vec(&replacement)?;
        self.records.mark_done(sk.storage_key(), &out)?;
        Ok(out)
    }
}

struct Block {
    vault: CardVault,
    records: Records,
}

impl CommandHandler for Block {
    fn handle(&self, env: &Envelope) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&env.tenant_id, &env.user_id, "cards.block", &env.idempotency_key)?;
        if let Some(done) = self.records.completed(sk.storage_key())? {
            return Ok(done);
        }
        let card_id = env.args.get("card_id").and_then(|v| v.as_str()).context("card_id missing")?;
        self.records.mark_in_progress(sk.storage_key())?;
        let blocked = match self.vault.load(&env.tenant_id, card_id).and_then(|card| self.vault.block(&card)) {
            Ok(b) => b,
            Err(e) => {
                self.records.abandon(sk.storage_key());
                return Err(e.into());
            }
        };
        let out = match serde_json::to_vec(&blocked) {
            Ok(o) => o,
            Err(e) => {
                self.records.abandon(sk.storage_key());
                return Err(e.into());
            }
        };
        if let Err(e) = self.records.mark_done(sk.storage_key(), &out) {
            self.records.abandon(sk.storage_key());
            return Err(e.into());
        }
        Ok(out)
    }
}
