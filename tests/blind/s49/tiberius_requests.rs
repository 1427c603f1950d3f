//! SQL Server backed replay of order submissions (tiberius).
use anyhow::anyhow;
use tiberius::{Client, Query};
use tokio::net::TcpStream;
use tokio_util::compat::Compat;

pub const SCHEMA: &str = r#"
CREATE TABLE dbo.idempotency_requests (
    tenant_id  NVARCHAR(64)  NOT NULL,
    user_id    NVARCHAR(64)  NOT NULL,
    route      NVARCHAR(128) NOT NULL,
    idem_key   NVARCHAR(255) NOT NULL,
    response   VARBINARY(MAX) NULL,
    created_at DATETIME2 NOT NULL DEFAULT SYSUTCDATETIME(),
    CONSTRAINT pk_idempotency_requests PRIMARY KEY (tenant_id, idem_key)
);
"#;

pub struct RequestLog {
    db: Client<Compat<TcpStream>>,
}

impl RequestLog {
    pub async fn replay_or_run(
        &mut self,
        head: &http::request::Parts,
        tenant_id: &str,
        user_id: &str,
        body: &[u8],
    ) -> anyhow::Result<Vec<u8>> {
        let key = head
            .headers
            .get("Idempotency-Key")
            .ok_or_else(|| anyhow!("missing Idempotency-Key"))?
            .to_str()?
            .to_owned();

        let mut q = Query::new("SELECT response FROM dbo.idempotency_requests WHERE idem_key = @P1");
        q.bind(key.as_str());
        let row = q.query(&mut self.db).await?.into_row().await?;
        if let Some(row) = row {
            let bytes: Option<&[u8]> = row.get(0);
            return Ok(bytes.unwrap_or_default().to_vec());
        }

        let out = crate::orders::execute(tenant_id, user_id, body).await?;
        let mut ins = Query::new(
            "INSERT INTO dbo.idempotency_requests (tenant_id, user_id, route, idem_key, response) \
             VALUES (@P1, @P2, @P3, @P4, @P5)",
        );
        ins.bind(tenant_id);
        ins.bind(user_id);
        ins.bind("orders.create");
        ins.bind(key.as_str());
        ins.bind(out.as_slice());
        ins.execute(&mut self.db).await?;
        Ok(out)
    }

    pub async fn session_user(&mut self, token: &str) -> anyhow::Result<Option<String>> {
        let mut q = Query::new("SELECT user_id FROM dbo.sessions WHERE token = @P1");
        q.bind(token);
        let row = q.query(&mut self.db).await?.into_row().await?;
        Ok(row.and_then(|r| r.get::<&str, _>(0).map(str::to_owned)))
    }
}
