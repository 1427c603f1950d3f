use std::sync::Arc;

use gatehouse::http::{Json, Request, Response, State, StatusCode};
use gatehouse::Auth;
use idem_scope::{scoped, Fingerprint, Problem};
use ledgerkit::idem::RecordStore;
use ledgerkit::wallet::{Topup, WalletLedger};
use serde::Deserialize;

#[derive(Clone)]
pub struct App {
    records: Arc<RecordStore>,
    wallet: Arc<WalletLedger>,
}

#[derive(Debug, Deserialize)]
pub struct TopupBody {
    pub wallet_id: String,
    pub amount_minor: i64,
    pub note: Option<String>,
}

pub async fn topup(
    State(app): State<App>,
    auth: Auth,
    req: Request,
    Json(body): Json<TopupBody>,
) -> Result<Response, Problem> {
    let key = req
        .header_str("Idempotency-Key")
        .ok_or_else(Problem::missing_key)?;
    if key.len() > 255 {
        return Err(Problem::invalid_key("longer than 255 characters"));
    }

    let tenant = auth.tenant_id.replace('\0', "");
    let sk = scoped(&tenant, &auth.user_id, "wallet.topup", key)
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;

    let raw = serde_json::to_vec(&body).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let fp = Fingerprint::of("wallet.topup", &raw);
    if let Some(rec) = app.records.get(&sk).await? {
        return match idem_scope::decide(Some(&rec), &fp) {
            idem_scope::Decision::Replay => Ok(rec.to_response()),
            idem_scope::Decision::Mismatch => Err(Problem::mismatch(key)),
            _ => Err(Problem::in_progress(key)),
        };
    }

    let note = body.note.as_deref().map(|n| n.replace('\0', "")).unwrap_or_default();
    let topup = Topup { wallet_id: body.wallet_id.clone(), amount_minor: body.amount_minor, note };
    let receipt = app.wallet.apply(&auth.tenant_id, &topup).await?;
    let resp = Response::json(StatusCode::CREATED, &receipt);
    app.records.put(&sk, idem_scope::Record::completed(fp).with_response(&resp)).await?;
    Ok(resp)
}
