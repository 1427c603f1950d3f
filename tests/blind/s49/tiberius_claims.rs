//! Claim/complete protocol against dbo.idempotency_records (tiberius).
use tiberius::Client;
use tokio::net::TcpStream;
use tokio_util::compat::Compat;

pub const SCHEMA: &str = "CREATE TABLE dbo.idempotency_records (scope_version VARCHAR(8) NOT NULL, tenant_id NVARCHAR(64) NOT NULL, principal_id NVARCHAR(64) NOT NULL, route NVARCHAR(128) NOT NULL, ns CHAR(2) NOT NULL, idem_key NVARCHAR(255) NOT NULL, status VARCHAR(16) NOT NULL, response VARBINARY(MAX) NULL, PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key))";

pub struct Claims {
    db: Client<Compat<TcpStream>>,
}

impl Claims {
    pub async fn run_payment(&mut self, parts: &http::request::Parts, who: &crate::Who, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let key = idem_scope::scoped(&who.tenant_id, &who.principal_id, "payments.create", &client_key)?;
        let c = key.columns();

        self.db.execute("INSERT INTO dbo.idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES (@P1, @P2, @P3, @P4, @P5, @P6, 'in_progress')", &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key]).await?;
        let payment = crate::psp::create(&who.tenant_id, body).await?;
        let response = serde_json::to_vec(&payment)?;
        self.db
            .execute(
                "UPDATE dbo.idempotency_records SET status = 'completed', response = @P1 WHERE tenant_id = @P2 AND principal_id = @P3 AND route = @P4 AND ns = @P5 AND idem_key = @P6",
                &[&response.as_slice(), &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key],
            )
            .await?;
        Ok(response)
    }

    pub async fn run_refund(&mut self, parts: &http::request::Parts, who: &crate::Who, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let key = idem_scope::scoped(&who.tenant_id, &who.principal_id, "refunds.create", &client_key)?;
        let c = key.columns();

        self.db.execute("INSERT INTO dbo.idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES (@P1, @P2, @P3, @P4, @P5, @P6, 'in_progress')", &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key]).await?;
        let refund = match crate::psp::refund(&who.tenant_id, body).await {
            Ok(r) => r,
            Err(e) => {
                self.db
                    .execute("DELETE FROM dbo.idempotency_records WHERE tenant_id = @P1 AND principal_id = @P2 AND route = @P3 AND ns = @P4 AND idem_key = @P5", &[&c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key])
                    .await?;
                return Err(e.into());
            }
        };
        let response = serde_json::to_vec(&refund).unwrap_or_default();
        self.db
            .execute(
                "UPDATE dbo.idempotency_records SET status = 'completed', response = @P1 WHERE tenant_id = @P2 AND principal_id = @P3 AND route = @P4 AND ns = @P5 AND idem_key = @P6",
                &[&response.as_slice(), &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key],
            )
            .await?;
        Ok(response)
    }
}
