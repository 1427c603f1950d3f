use std::collections::HashMap;

use idem_scope::ScopedKey;
use tallow::Records;
use tokio::sync::{mpsc, oneshot};

use crate::statements::{Statement, StatementRenderer};

pub enum Kind {
    Monthly,
    Quarterly,
    Adhoc { from: i64, to: i64 },
}

pub struct GenerateCmd {
    pub key: ScopedKey,
    pub account_id: String,
    pub kind: Kind,
    pub reply: oneshot::Sender<Result<Statement, String>>,
}

pub struct StatementActor {
    rx: mpsc::Receiver<GenerateCmd>,
    records: Records,
    renderer: StatementRenderer,
    cursors: HashMap<String, i64>,
}

impl StatementActor {
    pub async fn run(mut self) {
        while let Some(cmd) = self.rx.recv().await {
            let result = self.generate(&cmd).await;
            let _ = cmd.reply.send(result.map_err(|e| e.to_string()));
        }
    }

    async fn generate(&mut self, cmd: &GenerateCmd) -> eyre::Result<Statement> {
        if let Some(done) = self.records.load(&cmd.key).await? {
            return Ok(serde_json::from_slice(&done)?);
        }
        self.records.mark_in_progress(&cmd.key).await?;
        let (from, to) = match cmd.kind {
            Kind::Monthly => self.renderer.last_month(),
            Kind::Quarterly => self.renderer.last_quarter(),
            Kind::Adhoc { from, to } if from < to => (from, to),
            Kind::Adhoc { .. } => panic!("adhoc statement with an empty range"),
        };
        let cursor = self.cursors.get(&cmd.account_id).copied().unwrap_or_default();
        let statement = self.renderer.render(&cmd.account_id, from.max(cursor), to).await?;
        self.cursors.insert(cmd.account_id.clone(), to);
        self.records.mark_done(&cmd.key, &serde_json::to_vec(&statement)?).await?;
        Ok(statement)
    }
}
