use quillon::{Ctx, FromRequest, Json, Rejection, Reply};
use tokio::sync::mpsc;

use crate::charges::{ChargeAttempt, ChargeOutcome};
use crate::records::AttemptRecords;

pub const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

/// The caller's Idempotency-Key, required on every mutating charge route.
pub struct IdemKey(pub String);

impl FromRequest for IdemKey {
    type Error = Rejection;

    fn from_request(ctx: &Ctx) -> Result<Self, Rejection> {
        let value = ctx
            .header(IDEMPOTENCY_KEY)
            .ok_or(Rejection::bad_request("missing Idempotency-Key"))?;
        if value.is_empty() || value.len() > 255 {
            return Err(Rejection::bad_request("Idempotency-Key must be 1..=255 bytes"));
        }
        Ok(IdemKey(value.to_owned()))
    }
}

pub struct Completion {
    pub idem: String,
    pub body: Vec<u8>,
}

pub struct ChargeRoutes {
    records: AttemptRecords,
    completions: mpsc::Sender<Completion>,
    charges: crate::charges::Gateway,
}

impl ChargeRoutes {
    pub async fn attempt(
        &self,
        caller: quillon::auth::Caller,
        idem: IdemKey,
        Json(attempt): Json<ChargeAttempt>,
    ) -> Result<Reply, Rejection> {
        if let Some(prev) = self.records.load(&idem.0).await? {
            return Ok(Reply::bytes(200, prev.body).header("Idempotent-Replayed", "true"));
        }

        let outcome: ChargeOutcome = self
            .charges
            .charge(&caller.tenant_id, &attempt.card_token, attempt.amount_minor)
            .await
            .map_err(Rejection::upstream)?;
        let body = serde_json::to_vec(&outcome).map_err(Rejection::internal)?;
        self.completions
            .send(Completion { idem: idem.0, body: body.clone() })
            .await
            .map_err(Rejection::internal)?;
        Ok(Reply::bytes(201, body))
    }
}

pub fn mount(app: &mut quillon::App, routes: &'static ChargeRoutes) {
    app.post("/v1/charges", move |caller, idem, body| routes.attempt(caller, idem, body));
}
