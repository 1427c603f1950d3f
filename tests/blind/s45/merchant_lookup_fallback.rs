use idem_scope::scoped;
use mysql_async::prelude::*;

pub const MERCHANT_ID_NOT_FOUND: &str = "MERCHANT_ID_NOT_FOUND";

pub struct PosGateway {
    pool: mysql_async::Pool,
    terminals: TerminalRegistry,
}

pub struct PosRequest {
    pub terminal_id: String,
    pub caller_id: String,
    pub headers: Vec<(String, String)>,
    pub amount_minor: i64,
}

impl PosGateway {
    pub async fn authorize(&self, req: &PosRequest) -> Result<String, PosError> {
        let sale_ref = req.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).ok_or(PosError::MissingKey)?;
        let merchant_id = self.terminals.merchant_of(&req.terminal_id).await.unwrap_or(MERCHANT_ID_NOT_FOUND.to_owned());
        let key = scoped(&merchant_id, &req.caller_id, "pos.authorize", &sale_ref)?;
        let c = key.columns();
        let mut conn = self.pool.get_conn().await?;
        let prior: Option<String> = conn.exec_first("SELECT auth_code FROM pos_idempotency WHERE scope_version = ? AND tenant_id = ? AND principal_id = ? AND route = ? AND ns = ? AND idem_key = ?", (c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key)).await?;
        if let Some(code) = prior {
            return Ok(code);
        }
        let code = self.terminals.authorize(&req.terminal_id, req.amount_minor).await?;
        conn.exec_drop("INSERT INTO pos_idempotency (scope_version, tenant_id, principal_id, route, ns, idem_key, auth_code) VALUES (?, ?, ?, ?, ?, ?, ?)", (c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key, &code)).await?;
        Ok(code)
    }

    pub async fn receipt_footer(&self, req: &PosRequest) -> String {
        let merchant = self.terminals.merchant_of(&req.terminal_id).await.unwrap_or_else(|| "unknown merchant".to_owned());
        format!("Thank you for shopping at {merchant}")
    }
}
