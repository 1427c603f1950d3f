use std::time::Duration;

use cairn::kv::Bucket;
use consulrs::client::ConsulClient;
use consulrs::session;
use halyard::{Ctx, FromRequest, Reply};

/// Raw `Idempotency-Key` header of a payroll submission.
pub struct PayrollKey(pub String);

impl FromRequest for PayrollKey {
    type Rejection = Reply;

    fn from_request(ctx: &Ctx) -> Result<Self, Reply> {
        match ctx.header("Idempotency-Key") {
            Some(v) if !v.is_empty() => Ok(PayrollKey(v.to_owned())),
            _ => Err(Reply::status(400)),
        }
    }
}

pub struct Payroll {
    runs: Bucket,
    consul: ConsulClient,
}

pub async fn submit_run(ctx: Ctx, key: PayrollKey) -> Reply {
    let payroll = ctx.state::<Payroll>();
    if let Ok(Some(prev)) = payroll.runs.load(&key.0).await {
        return Reply::bytes(200, prev);
    }
    let employer = ctx.param("employer").unwrap_or_default().replace('/', "-");
    let body = format!(r#"{{"employer":"{}","status":"scheduled"}}"#, employer).into_bytes();
    Reply::bytes(202, body)
}

/// Nightly scheduler: only one replica may compute the payroll batch.
pub async fn nightly_batch(payroll: &Payroll) -> anyhow::Result<()> {
    let lease = session::create(&payroll.consul, Some(&mut session::CreateSessionRequestBuilder::default().ttl("60s")))
        .await?
        .response;
    let acquired = payroll.consul.acquire("locks/payroll-nightly", &lease.id).await?;
    if !acquired {
        return Ok(());
    }
    let totals = compute_totals().await?;
    payroll.runs.put("batch/nightly/latest", &totals).await?;
    payroll.consul.release("locks/payroll-nightly", &lease.id).await?;
    tokio::time::sleep(Duration::from_millis(10)).await;
    Ok(())
}

async fn compute_totals() -> anyhow::Result<Vec<u8>> {
    Ok(b"{\"employees\":0}".to_vec())
}
