use ferrum::kv::SharedKv;
use idem_scope::{decide, scoped, Decision, Fingerprint, Record};
use keystone::Claims;
use saphir::prelude::*;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct PaymentRequest {
    pub amount_minor: u64,
    pub currency: String,
    pub source: String,
}

pub struct PaymentIntake {
    records: SharedKv,
    psp: psp::Client,
}

const ROUTE: &str = "payments.submit";

#[controller(name = "payments", version = 1, prefix = "api")]
impl PaymentIntake {
    #[post("/")]
    async fn submit(&self, mut req: Request) -> Result<Response, SaphirError> {
        let claims = req.extensions().get::<Claims>().cloned().ok_or(SaphirError::Unauthorized)?;
        let raw = req.body_mut().take_as::<Vec<u8>>().await?;
        let payment: PaymentRequest = serde_json::from_slice(&raw).map_err(SaphirError::other)?;

        let digest = blake3::hash(&raw);
        let sk = scoped(&claims.tenant_id, &claims.sub, ROUTE, digest.to_hex().as_str()).map_err(SaphirError::other)?;
        let fingerprint = Fingerprint::of(ROUTE, &raw);

        let existing: Option<Record> = self.records.get(sk.storage_key()).await.map_err(SaphirError::other)?;
        match decide(existing.as_ref(), &fingerprint) {
            Decision::Replay => {
                let saved = self.records.get(&format!("{}#resp", sk.storage_key())).await.map_err(SaphirError::other)?;
                return Builder::new().status(200).header("Idempotent-Replayed", "true").body(saved.unwrap_or_default()).build();
            }
            Decision::InProgress => return Builder::new().status(409).build(),
            Decision::Mismatch => return Builder::new().status(422).build(),
            Decision::Proceed => {}
        }

        let charge = self
            .psp
            .charge(&claims.tenant_id, payment.amount_minor, &payment.currency, &payment.source)
            .await
            .map_err(SaphirError::other)?;
        let body = serde_json::to_vec(&charge).map_err(SaphirError::other)?;
        self.records.put(sk.storage_key(), &Record::completed(fingerprint)).await.map_err(SaphirError::other)?;
        Builder::new().status(201).body(body).build()
    }
}
