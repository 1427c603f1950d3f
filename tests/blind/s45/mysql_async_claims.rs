use mysql_async::prelude::*;
use mysql_async::{Conn, Pool};

pub struct RefundWorkflow {
    pool: Pool,
    gateway: RefundGateway,
}

pub struct RefundCall {
    pub headers: Vec<(String, String)>,
    pub merchant_id: String,
    pub user_id: String,
    pub charge_id: String,
    pub amount_minor: i64,
}

fn idem_header(call: &RefundCall) -> Option<String> {
    call.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("idempotency-key"))
        .map(|(_, v)| v.clone())
}

impl RefundWorkflow {
    pub async fn refund(&self, call: RefundCall) -> Result<String, RefundError> {
        let token = idem_header(&call).ok_or(RefundError::MissingKey)?;
        let mut conn: Conn = self.pool.get_conn().await?;
        let route = "refunds.create";
        conn.exec_drop("INSERT INTO idempotency_claims (merchant_id, user_id, route, idem_key, state) VALUES (?, ?, ?, ?, 'in_progress')", (&call.merchant_id, &call.user_id, route, &token)).await?;
        let amount = u64::try_from(call.amount_minor).unwrap();
        let refund_id = self.gateway.refund(&call.charge_id, amount).await?;
        conn.exec_drop("UPDATE idempotency_claims SET state = 'completed', result = ? WHERE merchant_id = ? AND user_id = ? AND route = ? AND idem_key = ?", (&refund_id, &call.merchant_id, &call.user_id, route, &token)).await?;
        Ok(refund_id)
    }

    pub async fn capture(&self, call: RefundCall) -> Result<String, RefundError> {
        let token = idem_header(&call).ok_or(RefundError::MissingKey)?;
        let mut conn: Conn = self.pool.get_conn().await?;
        let route = "captures.create";
        conn.exec_drop("INSERT INTO idempotency_claims (merchant_id, user_id, route, idem_key, state) VALUES (?, ?, ?, ?, 'in_progress')", (&call.merchant_id, &call.user_id, route, &token)).await?;
        let capture_id = match self.gateway.capture(&call.charge_id, call.amount_minor).await {
            Ok(id) => id,
            Err(e) => {
                conn.exec_drop("DELETE FROM idempotency_claims WHERE merchant_id = ? AND user_id = ? AND route = ? AND idem_key = ?", (&call.merchant_id, &call.user_id, route, &token)).await?;
                return Err(e.into());
            }
        };
        conn.exec_drop("UPDATE idempotency_claims SET state = 'completed', result = ? WHERE merchant_id = ? AND user_id = ? AND route = ? AND idem_key = ?", (&capture_id, &call.merchant_id, &call.user_id, route, &token)).await?;
        Ok(capture_id)
    }
}
