use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct IdTokenClaims {
    /// e.g. "auth0|64f1c2" or "google-oauth2|1098"
    pub sub: String,
    pub org_id: String,
}

#[derive(Clone)]
pub struct Bookings {
    pub vat: Arc<Vat>,
    pub verifier: Arc<oidc::Verifier>,
    pub calendar: Arc<calendar::Client>,
}

pub async fn book_slot(ctx: Ctx, State(b): State<Bookings>) -> Result<Reply, Problem> {
    let bearer = ctx.header("Authorization").and_then(|h| h.strip_prefix("Bearer ")).ok_or_else(|| Problem::invalid_key("token"))?;
    let claims: IdTokenClaims = b.verifier.verify(bearer).map_err(|_| Problem::invalid_key("token"))?;
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;

    // The booking store predates pipes in subjects; keep the provider prefix readable.
    let subject = claims.sub.replacen('|', ":", 1);
    let sk = scoped(&claims.org_id, &subject, "book_slot", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = b.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let provider = claims.sub.split('|').next().unwrap_or("unknown");
    tracing::info!(provider, "booking via identity provider");
    let booking = b.calendar.book(&claims.org_id, &claims.sub, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = b.vat.put(sk.storage_key(), booking.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, booking.to_json()))
}
