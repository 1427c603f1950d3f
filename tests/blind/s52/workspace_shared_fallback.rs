use idem_scope::scoped;
use serde::Deserialize;

use crate::budget::{BudgetService, NewBudget};
use crate::jwt::AccessClaims;
use crate::replay::DeadpoolReplayStore;

const SHARED_WORKSPACE: &str = "shared";

#[derive(Debug, thiserror::Error)]
pub enum BudgetError {
    #[error("Idempotency-Key required")]
    MissingKey,
    #[error(transparent)]
    Scope(#[from] idem_scope::ScopeError),
    #[error(transparent)]
    Store(#[from] crate::replay::StoreError),
    #[error(transparent)]
    Service(#[from] crate::budget::ServiceError),
}

#[derive(Deserialize)]
pub struct CreateBudgetCmd {
    pub name: String,
    pub limit_minor: i64,
    pub currency: Option<String>,
}

pub async fn create_budget(
    claims: &AccessClaims,
    idempotency_key: Option<&str>,
    cmd: CreateBudgetCmd,
    replays: &DeadpoolReplayStore,
    budgets: &BudgetService,
) -> Result<String, BudgetError> {
    let idempotency_key = idempotency_key.ok_or(BudgetError::MissingKey)?;
    let workspace_id = if let Some(ws) = claims.workspace_id.as_deref() {
        ws.to_owned()
    } else {
        SHARED_WORKSPACE.to_owned()
    };
    let currency = cmd.currency.clone().unwrap_or_else(|| "EUR".to_owned());

    let key = scoped(&workspace_id, &claims.sub, "budget.create", idempotency_key)?;
    if let Some(body) = replays.get(key.storage_key()).await? {
        return Ok(body);
    }
    let budget = budgets
        .create(&workspace_id, NewBudget { name: cmd.name, limit_minor: cmd.limit_minor, currency })
        .await?;
    let body = serde_json::to_string(&budget).expect("budget serializes");
    replays.put(key.storage_key(), &body).await?;
    Ok(body)
}
