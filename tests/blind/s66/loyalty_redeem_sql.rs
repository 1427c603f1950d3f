use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::sql::{Link, SqlError};

use crate::loyalty::{Loyalty, RedeemRequest};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version text        NOT NULL,
    tenant_id     text        NOT NULL,
    principal_id  text        NOT NULL,
    route         text        NOT NULL,
    ns            text        NOT NULL,
    idem_key      text        NOT NULL,
    status        text        NOT NULL,
    response      bytea,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)";

pub struct LoyaltyRedeem {
    link: Arc<Link>,
    loyalty: Arc<Loyalty>,
}

impl LoyaltyRedeem {
    pub async fn redeem(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(&who.tenant_id, &who.user_id, "loyalty_redeem", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        match self.run(&slot, &who.tenant_id, &who.user_id, &call).await {
            Ok(body) => Answer::bytes(Code::OK, body),
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }

    async fn run(&self, slot: &idem_scope::ScopedKey, tenant_id: &str, user_id: &str, call: &Call) -> Result<Vec<u8>, SqlError> {
        let c = slot.columns();
        self.link
            .query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES ($1, $2, $3, $4, $5, $6, 'in_progress')")
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .execute()
            .await?;

        let req: RedeemRequest = call.json().map_err(|e| SqlError::Decode(e.to_string()))?;
        let voucher = self.loyalty.redeem(tenant_id, user_id, req.points).await.map_err(|e| SqlError::Upstream(e.to_string()))?;
        let body = voucher.to_json().into_bytes();

        self.link
            .query("UPDATE idempotency_records SET status = 'completed', response = $1 WHERE scope_version = $2 AND tenant_id = $3 AND principal_id = $4 AND route = $5 AND ns = $6 AND idem_key = $7")
            .bind(&body)
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .execute()
            .await?;
        Ok(body)
    }
}
