use rust_decimal::Decimal;
use serde::Deserialize;
use warp::{Filter, Rejection, Reply};

use crate::gql::{GqlError, GqlRequest, GqlResponse};
use crate::replay::ReplayCache;
use crate::session::{session_filter, Session};
use crate::transfers::{Transfer, TransferService};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTransferInput {
    pub from_account: String,
    pub to_account: String,
    pub amount: Decimal,
    /// Client-supplied idempotency key: a retry carrying the same token gets the first result back.
    pub client_token: String,
    pub memo: Option<String>,
}

#[derive(Clone)]
pub struct MutationCtx {
    pub transfers: TransferService,
    pub replays: ReplayCache,
}

impl MutationCtx {
    pub async fn create_transfer(&self, session: &Session, input: CreateTransferInput) -> Result<Transfer, GqlError> {
        if let Some(prev) = self.replays.lookup(&input.client_token).await? {
            return Ok(prev);
        }
        if input.amount <= Decimal::ZERO {
            return Err(GqlError::user("amount must be positive"));
        }
        let memo = input.memo.clone().unwrap_or_default();
        let memo = memo.replace('#', "No. ");
        self.transfers
            .create(&session.workspace_id, &session.user_id, &input.from_account, &input.to_account, input.amount, &memo)
            .await
            .map_err(GqlError::from)
    }
}

pub fn graphql_route(ctx: MutationCtx) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("graphql")
        .and(warp::post())
        .and(session_filter())
        .and(warp::body::json())
        .and(warp::any().map(move || ctx.clone()))
        .and_then(|session: Session, req: GqlRequest, ctx: MutationCtx| async move {
            let resp = match req.operation_name.as_deref() {
                Some("CreateTransfer") => match serde_json::from_value::<CreateTransferInput>(req.variables["input"].clone()) {
                    Ok(input) => GqlResponse::from_result("createTransfer", ctx.create_transfer(&session, input).await),
                    Err(e) => GqlResponse::error(&format!("invalid input: {e}")),
                },
                _ => GqlResponse::error("unsupported operation"),
            };
            Ok::<_, Rejection>(warp::reply::json(&resp))
        })
}
