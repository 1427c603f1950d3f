use idem_scope::scoped;
use k12::digest::{ExtendableOutput, Update};
use k12::KangarooTwelve;
use serde::Deserialize;
use tide::{Request, Response, StatusCode};

use crate::state::WalletState;
use crate::session::CookieSession;

#[derive(Deserialize)]
struct TopUpForm {
    wallet_id: String,
    amount: String,
    funding_source: String,
}

fn k12_hex(data: &[u8]) -> String {
    let mut hasher = KangarooTwelve::default();
    hasher.update(data);
    hex::encode(hasher.finalize_boxed(32))
}

pub async fn top_up(mut req: Request<WalletState>) -> tide::Result {
    let session = req
        .ext::<CookieSession>()
        .cloned()
        .ok_or_else(|| tide::Error::from_str(StatusCode::Unauthorized, "login required"))?;
    let raw = req.body_string().await?;
    let form: TopUpForm = serde_urlencoded::from_str(&raw)
        .map_err(|e| tide::Error::new(StatusCode::BadRequest, e))?;

    let digest = k12_hex(raw.as_bytes());
    let key = scoped(&session.tenant_id, &session.user_id, "wallet.topup", &digest)
        .map_err(|e| tide::Error::new(StatusCode::BadRequest, e))?;

    let state = req.state();
    if let Some(prev) = state.replays.lookup(key.storage_key()).await? {
        return Ok(Response::builder(StatusCode::Ok).body(prev).build());
    }
    let receipt = state
        .wallets
        .top_up(&session.tenant_id, &form.wallet_id, &form.amount, &form.funding_source)
        .await?;
    let body = serde_json::to_string(&receipt)?;
    let mut note = String::from("top-up via form; request digest ");
    note.push_str(&digest);
    note.push_str("; source ");
    note.push_str(&form.funding_source);
    state.audit.insert(&receipt.id, &note).await?;
    state.replays.save(key.storage_key(), &body).await?;
    Ok(Response::builder(StatusCode::Created).body(body).build())
}
