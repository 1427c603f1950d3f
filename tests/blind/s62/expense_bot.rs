use std::sync::Arc;

use carapax::api::Client as TgClient;
use carapax::types::{AnswerCallbackQuery, Update, UpdateType};
use carapax::{HandlerResult, Ref};
use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct ExpenseIn {
    amount_minor: u64,
    category: String,
    receipt_url: String,
}

#[derive(Clone)]
pub struct Expenses {
    vault: Arc<Vault>,
    approvals: approvals::Repo,
    tg: TgClient,
}

impl Expenses {
    pub async fn submit(&self, ctx: &Ctx, caller: &Caller, Json(e): Json<ExpenseIn>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.org_id, &caller.user_id, "expenses.submit", key) {
            Ok(sk) => sk,
            Err(err) => return Reply::problem(Problem::invalid_key(&err.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let expense = self.approvals.create(&caller.org_id, &caller.user_id, e.amount_minor, &e.category, &e.receipt_url).await;
        let _ = self.vault.put(sk.storage_key(), expense.to_bytes()).await;
        Reply::bytes(Status::CREATED, expense.to_bytes())
    }
}

pub async fn on_update(app: Ref<Expenses>, update: Update) -> HandlerResult {
    let UpdateType::CallbackQuery(query) = update.update_type else {
        return Ok(());
    };
    let Some((expense_id, decision)) = query.data.as_deref().and_then(|d| d.split_once(':')) else {
        return Ok(());
    };
    let Some(approver) = app.approvals.approver_by_telegram(query.from.id).await else {
        return Ok(());
    };
    let delivery_id = update.id.to_string();
    let sk = scoped(&approver.org_id, &approver.user_id, "expenses.decide", &delivery_id)?;
    if app.vault.exists(sk.storage_key()).await? {
        app.tg.execute(AnswerCallbackQuery::new(query.id)).await?;
        return Ok(());
    }
    app.approvals.decide(&approver.org_id, expense_id, &approver.user_id, decision == "approve").await?;
    app.vault.put(sk.storage_key(), decision.as_bytes().to_vec()).await?;
    app.tg.execute(AnswerCallbackQuery::new(query.id).text("Recorded")).await?;
    Ok(())
}
