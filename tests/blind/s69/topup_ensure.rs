//! Auto top-up rules: a driver asks for an immediate top-up when the
//! balance drops below a threshold.

use std::time::Duration;

use color_eyre::eyre::{ensure, Result, WrapErr};
use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

#[derive(serde::Deserialize)]
struct AutoTopup {
    amount_cents: i64,
    card_ref: String,
}

async fn run(cx: &Cx, who: &Identity, bin: &Bin) -> Result<String> {
    let key = cx.header("Idempotency-Key").unwrap_or_default();
    let body: AutoTopup = serde_json::from_slice(&cx.body_bytes()).wrap_err("bad body")?;
    let sk = scoped(&who.org_id, &who.user_id, "/v1/wallet/auto-topups", key)?;
    ensure!(bin.claim(sk.storage_key(), Duration::from_secs(90)).await?, "in progress");
    ensure!(body.amount_cents > 0 && body.amount_cents <= 50_000, "amount out of range");
    let charge = crate::psp::charge_card(&body.card_ref, body.amount_cents).await;
    bin.complete(sk.storage_key(), charge.as_bytes()).await?;
    Ok(charge)
}

pub async fn auto_topup(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    match run(&cx, &who, bin).await {
        Ok(c) => Reply::text(Code::CREATED, c),
        Err(e) => Reply::text(Code::BAD_REQUEST, format!("{e:#}")),
    }
}
