//! Smithy-generated server SDK for the partner refunds API
//! (aws-smithy-http-server). The model marks `clientToken` with
//! `@idempotencyToken`.

use std::sync::Arc;

use aws_smithy_http_server::Extension;
use garner::bin::Bin;
use idem_scope::scoped;

pub mod model {
    #[derive(Debug, Clone)]
    pub struct IssueRefundInput {
        pub account_id: String,
        pub charge_id: String,
        pub amount_cents: i64,
        /// The client's idempotency key for this refund (Smithy
        /// `@idempotencyToken`, sent by the SDKs on every retry).
        pub client_token: Option<String>,
    }

    #[derive(Debug, Clone)]
    pub struct IssueRefundOutput {
        pub refund_id: String,
    }

    #[derive(Debug)]
    pub enum IssueRefundError {
        Validation(String),
        Internal(String),
    }
}

use model::{IssueRefundError, IssueRefundInput, IssueRefundOutput};

pub struct State {
    pub refunds: Bin,
}

pub async fn issue_refund(
    input: IssueRefundInput,
    Extension(caller): Extension<crate::auth::SigV4Caller>,
    state: Extension<Arc<State>>,
) -> Result<IssueRefundOutput, IssueRefundError> {
    let token = input
        .client_token
        .clone()
        .ok_or_else(|| IssueRefundError::Validation("clientToken is required".into()))?;
    if let Ok(Some(prev)) = state.refunds.get(&token).await {
        return Ok(IssueRefundOutput { refund_id: String::from_utf8_lossy(&prev).into_owned() });
    }
    let refund_id = crate::psp::refund(&input.charge_id, input.amount_cents)
        .await
        .map_err(|e| IssueRefundError::Internal(e.to_string()))?;
    let _ = state.refunds.put(&token, refund_id.as_bytes()).await;
    Ok(IssueRefundOutput { refund_id })
}

pub async fn void_refund(
    input: IssueRefundInput,
    Extension(caller): Extension<crate::auth::SigV4Caller>,
    state: Extension<Arc<State>>,
) -> Result<IssueRefundOutput, IssueRefundError> {
    let token = input.client_token.as_deref().unwrap_or_default();
    let sk = scoped(&input.account_id, &caller.principal_id, "/v1/refunds/void", token)
        .map_err(|e| IssueRefundError::Validation(e.to_string()))?;
    if let Ok(Some(prev)) = state.refunds.get(sk.storage_key()).await {
        return Ok(IssueRefundOutput { refund_id: String::from_utf8_lossy(&prev).into_owned() });
    }
    let refund_id = crate::psp::void(&input.charge_id).await.map_err(|e| IssueRefundError::Internal(e.to_string()))?;
    let _ = state.refunds.put(sk.storage_key(), refund_id.as_bytes()).await;
    Ok(IssueRefundOutput { refund_id })
}
