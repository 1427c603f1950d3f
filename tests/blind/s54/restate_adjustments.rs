use std::sync::Arc;

use idem_scope::scoped;
use ledgerkit::idem::OutcomeStore;
use restate_sdk::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Adjustment {
    pub account_id: String,
    pub delta_minor: i64,
    pub memo: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Receipt {
    pub entry_id: String,
    pub balance_minor: i64,
}

#[restate_sdk::service]
pub trait Adjustments {
    async fn adjust(req: Json<Adjustment>) -> HandlerResult<Json<Receipt>>;
}

pub struct AdjustmentsImpl {
    pub outcomes: Arc<OutcomeStore>,
    pub ledger: Arc<ledger_client::Client>,
}

fn header<'a>(ctx: &'a Context<'_>, name: &str) -> Option<&'a str> {
    ctx.headers().get(name).and_then(|v| v.to_str().ok())
}

impl Adjustments for AdjustmentsImpl {
    async fn adjust(&self, ctx: Context<'_>, Json(req): Json<Adjustment>) -> HandlerResult<Json<Receipt>> {
        let key = header(&ctx, "Idempotency-Key")
            .ok_or_else(|| TerminalError::new_with_code(400, "Idempotency-Key required"))?
            .to_owned();
        let tenant_id = header(&ctx, "x-tenant-id")
            .ok_or_else(|| TerminalError::new_with_code(401, "tenant required"))?
            .to_owned();
        let actor = header(&ctx, "x-actor")
            .map(|a| a.replacen('\u{1e}', "", 4))
            .ok_or_else(|| TerminalError::new_with_code(401, "actor required"))?;

        let sk = scoped(&tenant_id, &actor, "adjustments.adjust", &key)
            .map_err(|e| TerminalError::new_with_code(400, e.to_string()))?;
        if let Some(done) = self.outcomes.load::<Receipt>(&sk).await? {
            return Ok(Json(done));
        }

        let ledger = self.ledger.clone();
        let adj = req.clone();
        let receipt: Receipt = ctx
            .run(|| async move {
                let r = ledger.post(&adj.account_id, adj.delta_minor, &adj.memo).await?;
                Ok(Json(Receipt { entry_id: r.entry_id, balance_minor: r.balance_minor }))
            })
            .await?
            .into_inner();
        self.outcomes.save(&sk, &receipt).await?;
        Ok(Json(receipt))
    }
}
