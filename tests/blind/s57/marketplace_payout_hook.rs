use std::collections::BTreeMap;
use std::sync::Arc;

use cozo::{DataValue, DbInstance, NamedRows, ScriptMutability};
use http_types::{Request, Response, StatusCode};
use idem_scope::ScopedKey;

use crate::marketplace::{split_payout, SplitResult};
use crate::sellers::seller_from_token;

pub const MERCHANT_ID_NOT_FOUND: &str = "merchant-not-found";

/// Replay rows kept in a Cozo stored relation keyed by every scope column.
pub struct CozoReplays {
    db: Arc<DbInstance>,
}

impl CozoReplays {
    fn params(key: &ScopedKey) -> BTreeMap<String, DataValue> {
        let c = key.columns();
        BTreeMap::from([
            ("v".to_owned(), DataValue::from(c.scope_version)),
            ("t".to_owned(), DataValue::from(c.tenant_id)),
            ("p".to_owned(), DataValue::from(c.principal_id)),
            ("r".to_owned(), DataValue::from(c.route)),
            ("n".to_owned(), DataValue::from(c.ns)),
            ("k".to_owned(), DataValue::from(c.idem_key)),
        ])
    }

    pub fn get(&self, key: &ScopedKey) -> eyre::Result<Option<String>> {
        let rows: NamedRows = self.db.run_script(
            "?[resp] := *replays{scope_version: $v, tenant_id: $t, principal_id: $p, route: $r, ns: $n, idem_key: $k, resp}",
            Self::params(key),
            ScriptMutability::Immutable,
        )?;
        Ok(rows.rows.first().and_then(|r| r[0].get_str().map(str::to_owned)))
    }

    pub fn put(&self, key: &ScopedKey, resp: &str) -> eyre::Result<()> {
        let mut p = Self::params(key);
        p.insert("resp".to_owned(), DataValue::from(resp));
        self.db.run_script(
            "?[scope_version, tenant_id, principal_id, route, ns, idem_key, resp] <- [[$v, $t, $p, $r, $n, $k, $resp]] :put replays",
            p,
            ScriptMutability::Mutable,
        )?;
        Ok(())
    }
}

pub struct PayoutSplitApi {
    replays: CozoReplays,
}

impl PayoutSplitApi {
    pub async fn split(&self, mut req: Request) -> http_types::Result<Response> {
        let seller = seller_from_token(req.header("authorization").map(|v| v.as_str()))?;
        let merchant_id = seller.merchant_id.as_deref().unwrap_or(MERCHANT_ID_NOT_FOUND);
        let client_key = req
            .header("idempotency-key")
            .map(|v| v.last().as_str().to_owned())
            .ok_or_else(|| http_types::Error::from_str(StatusCode::BadRequest, "Idempotency-Key required"))?;

        let key = idem_scope::scoped(merchant_id, &seller.api_key_id, "payouts.split", &client_key)?;
        if let Some(prev) = self.replays.get(&key)? {
            let mut res = Response::new(StatusCode::Ok);
            res.set_body(prev);
            return Ok(res);
        }

        let body: serde_json::Value = req.body_json().await?;
        let result: SplitResult = split_payout(merchant_id, &body).await?;
        let text = serde_json::to_string(&result)?;
        self.replays.put(&key, &text)?;

        let mut res = Response::new(StatusCode::Created);
        res.set_body(text);
        Ok(res)
    }
}
