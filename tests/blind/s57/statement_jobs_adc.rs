use std::sync::Arc;

use aide_de_camp::core::job_processor::JobProcessor;
use aide_de_camp::core::{CancellationToken, Xid};
use async_trait::async_trait;
use idem_scope::Namespace;
use serde::{Deserialize, Serialize};

use crate::statements::{Mailer, StatementBuilder};
use crate::store::NsReplays;

#[derive(Serialize, Hash, PartialEq, Eq, Clone)]
pub struct NsKey {
    pub ns: Namespace,
    pub tenant_id: String,
    pub user_id: String,
    pub route: String,
    pub key: String,
}

#[derive(Serialize, Deserialize)]
pub struct MonthlyStatement {
    pub tenant_id: String,
    pub user_id: String,
    pub month: String,
}

/// Emails statements on request (HTTP) and on the monthly schedule (job).
pub struct StatementService {
    pub replays: Arc<NsReplays>,
    pub builder: Arc<StatementBuilder>,
}

impl StatementService {
    /// POST /v1/statements/email (Idempotency-Key required).
    pub async fn email_statement_http(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, month: &str) -> eyre::Result<()> {
        let client_key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| eyre::eyre!("missing Idempotency-Key"))?;
        let key = NsKey { ns: Namespace::Client, tenant_id: tenant_id.into(), user_id: user_id.into(), route: "statements.email".into(), key: client_key.into() };
        if self.replays.exists(&key).await? {
            return Ok(());
        }
        self.builder.email(tenant_id, user_id, month).await?;
        self.replays.insert(&key, b"sent").await?;
        Ok(())
    }
}

#[async_trait]
impl JobProcessor for StatementService {
    type Payload = MonthlyStatement;
    type Error = eyre::Report;

    async fn handle(&self, jid: Xid, payload: Self::Payload, _cancel: CancellationToken) -> Result<(), Self::Error> {
        let key = NsKey { ns: Namespace::Client, tenant_id: payload.tenant_id.clone(), user_id: payload.user_id.clone(), route: "statements.email".into(), key: jid.to_string() };
        if self.replays.exists(&key).await? {
            return Ok(());
        }
        self.builder.email(&payload.tenant_id, &payload.user_id, &payload.month).await?;
        self.replays.insert(&key, b"sent").await?;
        Ok(())
    }

    fn name() -> &'static str {
        "monthly_statement"
    }
}

/// Reminder mails share the replay table with the statements above.
pub struct ReminderJob {
    pub service: Arc<StatementService>,
    pub mailer: Arc<Mailer>,
}

#[async_trait]
impl JobProcessor for ReminderJob {
    type Payload = MonthlyStatement;
    type Error = eyre::Report;

    async fn handle(&self, jid: Xid, payload: Self::Payload, _cancel: CancellationToken) -> Result<(), Self::Error> {
        let key = NsKey { ns: Namespace::Server, tenant_id: payload.tenant_id.clone(), user_id: payload.user_id.clone(), route: "statements.remind".into(), key: jid.to_string() };
        if self.service.replays.exists(&key).await? {
            return Ok(());
        }
        self.mailer.remind(&payload.tenant_id, &payload.user_id, &payload.month).await?;
        self.service.replays.insert(&key, b"sent").await?;
        Ok(())
    }

    fn name() -> &'static str {
        "statement_reminder"
    }
}
