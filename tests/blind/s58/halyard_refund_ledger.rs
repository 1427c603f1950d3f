use anyhow::{bail, Context as _};
use cairn::ledger::Ledger;
use halyard::{Ctx, Json, Reply};
use idem_scope::{scoped, Fingerprint};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct RefundInput {
    charge_id: String,
    amount_minor: i64,
}

pub async fn refund(ctx: Ctx, Json(input): Json<RefundInput>) -> anyhow::Result<Reply> {
    let ledger = ctx.state::<Ledger>();
    let caller = ctx.caller().context("unauthenticated")?;
    let key = ctx.header("Idempotency-Key").context("missing Idempotency-Key")?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "refunds.create", key)?;
    let fp = Fingerprint::of("refunds.create", ctx.body());

    ledger.reserve(sk.storage_key(), &fp).await?;
    let charge = ledger.charge(&input.charge_id).await?;
    if input.amount_minor > charge.amount_minor {
        bail!("refund of {} exceeds charge {}", input.amount_minor, charge.amount_minor);
    }
    let body = format!(r#"{{"refunded":{},"charge":"{}"}}"#, input.amount_minor, input.charge_id);
    ledger.commit(sk.storage_key(), body.as_bytes()).await?;
    Ok(Reply::text(201, body))
}

pub async fn partial_capture(ctx: Ctx, Json(input): Json<RefundInput>) -> anyhow::Result<Reply> {
    let ledger = ctx.state::<Ledger>();
    let caller = ctx.caller().context("unauthenticated")?;
    let key = ctx.header("Idempotency-Key").context("missing Idempotency-Key")?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "captures.partial", key)?;
    let fp = Fingerprint::of("captures.partial", ctx.body());

    ledger.reserve(sk.storage_key(), &fp).await?;
    let outcome = async {
        let charge = ledger.charge(&input.charge_id).await?;
        if input.amount_minor > charge.amount_minor {
            bail!("capture exceeds authorisation");
        }
        Ok(format!(r#"{{"captured":{}}}"#, input.amount_minor))
    }
    .await;
    match outcome {
        Ok(body) => {
            ledger.commit(sk.storage_key(), body.as_bytes()).await?;
            Ok(Reply::text(200, body))
        }
        Err(e) => {
            let _ = ledger.abandon(sk.storage_key()).await;
            Err(e)
        }
    }
}
