use eyre::{ensure, Result};
use idem_scope::{scoped, Fingerprint};
use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use serde::Deserialize;
use sextant::sql::Pool;

#[derive(Deserialize)]
struct Redeem {
    card: String,
    amount_minor: i64,
}

pub struct GiftCards {
    pool: Pool,
}

impl GiftCards {
    pub async fn redeem(&self, caller: &Caller, head: &Head, body: RawBody) -> Result<Vec<u8>> {
        let key = head.header("Idempotency-Key").ok_or_else(|| eyre::eyre!("missing key"))?;
        let req: Redeem = serde_json::from_slice(body.as_bytes())?;
        let sk = scoped(caller.tenant_id(), caller.user_id(), "giftcard_redeem", key)?;
        let cols = sk.columns();
        let fp = Fingerprint::of("giftcard_redeem", body.as_bytes());

        self.pool
            .query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress')")
            .bind(cols.scope_version)
            .bind(cols.tenant_id)
            .bind(cols.principal_id)
            .bind(cols.route)
            .bind(cols.ns)
            .bind(cols.idem_key)
            .bind(fp.as_bytes().as_slice())
            .execute()
            .await?;

        let balance: i64 = self
            .pool
            .query("SELECT balance_minor FROM gift_cards WHERE tenant_id = $1 AND card = $2")
            .bind(caller.tenant_id())
            .bind(&req.card)
            .fetch_one()
            .await?
            .get(0);
        ensure!(balance >= req.amount_minor, "insufficient balance on {}", req.card);

        self.pool
            .query("UPDATE gift_cards SET balance_minor = balance_minor - $1 WHERE tenant_id = $2 AND card = $3")
            .bind(req.amount_minor)
            .bind(caller.tenant_id())
            .bind(&req.card)
            .execute()
            .await?;
        let response = serde_json::to_vec(&serde_json::json!({ "card": req.card, "debited": req.amount_minor }))?;
        self.pool
            .query("UPDATE idempotency_records SET status = 'completed', response = $1 WHERE scope_version = $2 AND tenant_id = $3 AND principal_id = $4 AND route = $5 AND ns = $6 AND idem_key = $7")
            .bind(&response)
            .bind(cols.scope_version)
            .bind(cols.tenant_id)
            .bind(cols.principal_id)
            .bind(cols.route)
            .bind(cols.ns)
            .bind(cols.idem_key)
            .execute()
            .await?;
        Ok(response)
    }
}
