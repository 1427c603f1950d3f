use hdbconnect_async::{Connection, HdbResult};
use idem_scope::{Fingerprint, ScopedKey};

use crate::orders::{OrderService, PlacedOrder};

pub const IDEM_DDL: &str = r#"
CREATE COLUMN TABLE IDEMPOTENCY_RECORDS (
    SCOPE_VERSION  NVARCHAR(8)    NOT NULL,
    TENANT_ID      NVARCHAR(64)   NOT NULL,
    PRINCIPAL_ID   NVARCHAR(64)   NOT NULL,
    ROUTE          NVARCHAR(128)  NOT NULL,
    NS             NVARCHAR(2)    NOT NULL,
    IDEM_KEY       NVARCHAR(255)  NOT NULL,
    FINGERPRINT    VARBINARY(32)  NOT NULL,
    STATUS         NVARCHAR(16)   NOT NULL,
    RESPONSE       NCLOB,
    CREATED_AT     TIMESTAMP      NOT NULL DEFAULT CURRENT_UTCTIMESTAMP,
    PRIMARY KEY (SCOPE_VERSION, TENANT_ID, PRINCIPAL_ID, ROUTE, NS, IDEM_KEY)
)"#;

const CLAIM_SQL: &str = "INSERT INTO IDEMPOTENCY_RECORDS \
    (SCOPE_VERSION, TENANT_ID, PRINCIPAL_ID, ROUTE, NS, IDEM_KEY, FINGERPRINT, STATUS) \
    VALUES (?, ?, ?, ?, ?, ?, ?, 'in_progress')";
const COMPLETE_SQL: &str = "UPDATE IDEMPOTENCY_RECORDS SET STATUS = 'completed', RESPONSE = ? \
    WHERE SCOPE_VERSION = ? AND TENANT_ID = ? AND PRINCIPAL_ID = ? AND ROUTE = ? AND NS = ? AND IDEM_KEY = ?";

pub struct HanaIdemRepo {
    conn: Connection,
    orders: OrderService,
}

impl HanaIdemRepo {
    pub async fn place(&self, key: &ScopedKey, fp: &Fingerprint, lines: Vec<(String, u32)>) -> eyre::Result<PlacedOrder> {
        let c = key.columns();
        self.conn.prepare_and_execute(CLAIM_SQL, &(c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key, fp.as_bytes().to_vec())).await?;

        if lines.is_empty() {
            eyre::bail!("an order needs at least one line");
        }
        let placed = self.orders.place(c.tenant_id, c.principal_id, &lines).await?;
        let response = serde_json::to_string(&placed)?;

        self.conn
            .prepare_and_execute(COMPLETE_SQL, &(response, c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key))
            .await?;
        Ok(placed)
    }

    pub async fn migrate(&self) -> HdbResult<()> {
        self.conn.multiple_statements_ignore_err(vec![IDEM_DDL]).await;
        Ok(())
    }
}
