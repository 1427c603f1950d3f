use anyhow::ensure;
use idem_scope::scoped;
use rust_decimal::Decimal;
use salvo::prelude::*;
use serde::Deserialize;

use crate::session::JwtSession;
use crate::store::AcquireStore;
use crate::wallet::Wallets;

#[derive(Deserialize)]
struct CardTopUp {
    wallet_id: String,
    amount: String,
    card_token: String,
}

async fn top_up_inner(req: &mut Request, depot: &Depot) -> anyhow::Result<String> {
    let session = depot.obtain::<JwtSession>().map_err(|_| anyhow::anyhow!("no session"))?;
    let store = depot.obtain::<AcquireStore>().map_err(|_| anyhow::anyhow!("no store"))?;
    let wallets = depot.obtain::<Wallets>().map_err(|_| anyhow::anyhow!("no wallets"))?;
    let idem: String = req.header("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("missing key"))?;
    let form: CardTopUp = req.parse_form().await?;

    let guard_key = scoped(&session.tenant_id, &session.sub, "wallet.card_topup", &idem)?;
    store.acquire(&guard_key).await?;

    let amount = {
        let parsed: Decimal = form.amount.trim().parse()?;
        ensure!(parsed > Decimal::ZERO, "amount must be positive");
        parsed
    };
    let receipt = wallets
        .card_top_up(&session.tenant_id, &form.wallet_id, amount, &form.card_token)
        .await?;
    let body = serde_json::to_string(&receipt)?;
    store.finish(&guard_key, &body).await?;
    Ok(body)
}

#[handler]
pub async fn card_top_up(req: &mut Request, depot: &mut Depot, res: &mut Response) {
    match top_up_inner(req, depot).await {
        Ok(body) => {
            res.status_code(StatusCode::CREATED);
            res.render(Text::Json(body));
        }
        Err(e) => {
            res.status_code(StatusCode::UNPROCESSABLE_ENTITY);
            res.render(Text::Plain(e.to_string()));
        }
    }
}
