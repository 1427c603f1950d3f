use std::time::Duration;

use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, IdempotencyKey, Problem, Record};
use larder::pantry::Pantry;
use serde::Deserialize;
use tamarind::auth::Caller;
use tamarind::extract::FromRequest;
use tamarind::{Reply, Req};

const ROUTE: &str = "payments.create";
const LEASE: Duration = Duration::from_secs(300);

/// The parsed `Idempotency-Key` of the request.
pub struct ClientKey(IdempotencyKey);

impl FromRequest for ClientKey {
    fn from_request(req: &Req) -> Result<Self, Reply> {
        let raw = req
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        IdempotencyKey::parse_lenient(raw.as_bytes())
            .map(ClientKey)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))
    }
}

#[derive(Deserialize)]
struct NewPayment {
    amount_minor: i64,
    currency: String,
    source: String,
}

pub async fn create_payment(
    req: Req,
    caller: Caller,
    ck: ClientKey,
    pantry: &Pantry,
) -> Result<Reply, Reply> {
    let key = scoped(&caller.tenant_id, &caller.user_id, ROUTE, ck.0.as_str())
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let fingerprint = Fingerprint::of(ROUTE, req.body());

    let existing: Option<Record> = pantry.load_record(key.storage_key()).await.map_err(Reply::internal)?;
    match decide(existing.as_ref(), &fingerprint) {
        Decision::Replay => return pantry.replay(key.storage_key()).await.map_err(Reply::internal),
        Decision::InProgress => return Err(Reply::problem(Problem::in_progress(ck.0.as_str()))),
        Decision::Mismatch => return Err(Reply::problem(Problem::mismatch(ck.0.as_str()))),
        Decision::Proceed => {}
    }

    pantry.claim(key.storage_key(), &fingerprint, LEASE).await.map_err(Reply::internal)?;
    let releaser = pantry.clone();
    let storage_key = key.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = releaser.release(&storage_key).await;
        });
    });

    let input: NewPayment = req.json()?;
    let payment_id = charge(&caller, &input).await.map_err(Reply::internal)?;
    let reply = Reply::json(201, &serde_json::json!({ "id": payment_id, "status": "captured" }));

    pantry
        .complete(key.storage_key(), &reply.to_stored())
        .await
        .map_err(Reply::internal)?;
    guard.complete();
    Ok(reply)
}

async fn charge(caller: &Caller, input: &NewPayment) -> anyhow::Result<String> {
    tracing::info!(tenant = %caller.tenant_id, currency = %input.currency, "charging");
    anyhow::ensure!(input.amount_minor > 0, "amount must be positive");
    Ok(format!("pay_{}", input.source.len()))
}
