use std::sync::Arc;

use cobble::vault::Vault;
use idem_scope::{scoped, Namespace, Problem};
use irc::client::prelude::{Client, Command, Message};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

/// Ops bot: deploy commands arrive both from IRC and from the HTTP console.
pub struct OpsBot {
    pub vault: Arc<Vault>,
    pub tenant_id: String,
}

impl OpsBot {
    pub async fn console_deploy(&self, ex: Exchange, caller: Caller, target: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "deploy", raw)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        debug_assert!(matches!(sk.namespace(), Namespace::Client));
        if !self.vault.set_nx(sk.storage_key(), target.as_bytes()).await.map_err(|_| down())? {
            return Ok(Reply::status(Status::Ok));
        }
        Ok(Reply::status(Status::Accepted))
    }

    pub async fn on_irc(&self, client: &Client, msg: Message) -> anyhow::Result<()> {
        let Some(nick) = msg.source_nickname().map(str::to_string) else {
            return Ok(());
        };
        let msgid = msg
            .tags
            .as_ref()
            .and_then(|tags| tags.iter().find(|t| t.0 == "msgid"))
            .and_then(|t| t.1.clone());
        let Command::PRIVMSG(channel, text) = &msg.command else {
            return Ok(());
        };
        let Some(target) = text.strip_prefix("!deploy ") else {
            return Ok(());
        };
        let Some(msgid) = msgid else {
            client.send_privmsg(channel, "no msgid tag, refusing")?;
            return Ok(());
        };
        let sk = scoped(&self.tenant_id, &nick, "deploy", &msgid)?;
        if self.vault.set_nx(sk.storage_key(), target.as_bytes()).await? {
            client.send_privmsg(channel, format!("{nick}: deploying {target}"))?;
        }
        Ok(())
    }
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
