use idem_scope::{scoped, Fingerprint, Problem};
use twirp::{Context, TwirpErrorResponse};

use crate::replay_store::{AsyncStore, Claimed};

/// Generated from payments/v1/payments.proto.
#[derive(Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CreatePaymentRequest {
    pub account_id: String,
    pub amount_minor: i64,
    pub currency: String,
    /// Client-chosen idempotency key; retries of the same logical payment
    /// must reuse it.
    pub idempotency_key: String,
}

#[derive(Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CreatePaymentResponse {
    pub payment_id: String,
    pub status: String,
}

pub struct PaymentsServer {
    replays: AsyncStore,
    processor: crate::processor::Processor,
}

impl crate::proto::payments::Payments for PaymentsServer {
    async fn create_payment(
        &self,
        ctx: Context,
        req: CreatePaymentRequest,
    ) -> Result<CreatePaymentResponse, TwirpErrorResponse> {
        let principal = ctx
            .get::<crate::auth::Principal>()
            .ok_or_else(|| twirp::unauthenticated("no principal"))?;
        let key = req.idempotency_key.trim_end_matches('\0');
        let sk = scoped(&req.account_id, &principal.user_id, "payments.create", key)
            .map_err(|e| twirp::invalid_argument(e.to_string()))?;

        let encoded = serde_json::to_vec(&req).map_err(twirp::internal)?;
        let fp = Fingerprint::of("payments.create", &encoded);
        if let Some(prev) = self.replays.peek(&sk).await.map_err(twirp::internal)? {
            return crate::replay::decode_payment(prev, &fp).map_err(|p: Problem| twirp::aborted(p.to_json()));
        }

        let payment = self
            .processor
            .charge(&req.account_id, req.amount_minor, &req.currency)
            .await
            .map_err(twirp::internal)?;
        let out = CreatePaymentResponse { payment_id: payment.id.clone(), status: payment.status.to_string() };
        self.replays
            .put(sk.storage_key(), &crate::replay::encode_payment(&out, &fp), std::time::Duration::from_secs(86_400))
            .await
            .map_err(twirp::internal)?;
        Ok(out)
    }
}
