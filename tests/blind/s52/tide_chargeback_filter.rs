use idem_scope::scoped;
use tide::{Request, Response, StatusCode};

use crate::disputes::{ChargebackResponse, Disputes};
use crate::state::DisputeState;
use crate::session::MerchantSession;

const RS: char = '\u{1e}';

fn client_key(req: &Request<DisputeState>) -> Option<String> {
    let raw = req.header("Idempotency-Key")?.last().as_str();
    let cleaned: String = raw.chars().filter(|c| *c != RS).collect();
    if cleaned.is_empty() {
        None
    } else {
        Some(cleaned)
    }
}

pub async fn respond_to_chargeback(mut req: Request<DisputeState>) -> tide::Result {
    let session: MerchantSession = req
        .ext::<MerchantSession>()
        .cloned()
        .ok_or_else(|| tide::Error::from_str(StatusCode::Unauthorized, "session required"))?;
    let Some(idem) = client_key(&req) else {
        return Ok(Response::builder(StatusCode::BadRequest).body("Idempotency-Key required").build());
    };
    let dispute_id = req.param("dispute_id")?.to_owned();
    let evidence: ChargebackResponse = req.body_json().await?;

    let key = scoped(&session.merchant_id, &session.user_id, "chargeback.respond", &idem)
        .map_err(|e| tide::Error::new(StatusCode::BadRequest, e))?;
    let state = req.state();
    if let Some(prev) = state.replays.get(key.storage_key()).await? {
        return Ok(Response::builder(StatusCode::Ok).body(prev).build());
    }
    let submitted = Disputes::respond(&state.psp, &session.merchant_id, &dispute_id, evidence).await?;
    let body = serde_json::to_string(&submitted)?;
    state.replays.set(key.storage_key(), &body).await?;
    Ok(Response::builder(StatusCode::Created).body(body).build())
}
