//! Bootstraps the ledger tables on the OpenLink Virtuoso 7 instance that
//! also serves the partner RDF catalogue.

use skerry::sql::{Link, SqlError};
use slog::{info, Logger};

const LEDGER_DDL: &str = "
CREATE TABLE DB.DBA.idempotency_ledger (
    tenant_id      VARCHAR(64)   NOT NULL,
    principal_id   VARCHAR(64)   NOT NULL,
    route          VARCHAR(128)  NOT NULL,
    idem_key       VARCHAR(255)  NOT NULL,
    status         VARCHAR(16)   NOT NULL,
    response       LONG VARBINARY,
    created        DATETIME,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
)";

const GUARD_DDL: &str = "
CREATE TABLE DB.DBA.replay_guard (
    principal_id   VARCHAR(64)   NOT NULL,
    idem_key       VARCHAR(255)  NOT NULL,
    created        DATETIME,
    PRIMARY KEY (principal_id, idem_key)
)";

const PARTNER_DDL: &str = "
CREATE TABLE DB.DBA.partner_dedup (
    id             INTEGER IDENTITY,
    tenant_id      VARCHAR(64)   NOT NULL,
    caller_id      VARCHAR(64)   NOT NULL,
    action         VARCHAR(64)   NOT NULL,
    idem_key       VARCHAR(255)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (tenant_id, caller_id, action, idem_key)
)";

pub struct VirtuosoBootstrap {
    link: Link,
    log: Logger,
}

impl VirtuosoBootstrap {
    pub fn new(link: Link, log: Logger) -> Self {
        VirtuosoBootstrap { link, log }
    }

    pub fn run(&self) -> Result<(), SqlError> {
        for (name, ddl) in [("idempotency_ledger", LEDGER_DDL), ("replay_guard", GUARD_DDL), ("partner_dedup", PARTNER_DDL)] {
            if self.link.table_exists("DB", "DBA", name)? {
                continue;
            }
            self.link.execute(ddl)?;
            info!(self.log, "created table"; "table" => name);
        }
        self.link.execute("CHECKPOINT")?;
        Ok(())
    }
}
