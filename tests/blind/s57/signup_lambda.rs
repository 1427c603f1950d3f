use std::sync::Arc;

use netlify_lambda_http::{handler, lambda, Body, IntoResponse, Request, RequestExt, Response};
use once_cell::sync::OnceCell;
use tallow::Ledger;

use crate::accounts::{provision_workspace, ProvisionInput, Provisioned};
use crate::jwt::verify_invite;

static LEDGER: OnceCell<Arc<Ledger>> = OnceCell::new();

type Error = Box<dyn std::error::Error + Send + Sync + 'static>;

#[lambda(http)]
#[tokio::main]
async fn main(req: Request, _ctx: lambda::Context) -> Result<impl IntoResponse, Error> {
    accept_invite(req).await
}

async fn accept_invite(req: Request) -> Result<Response<Body>, Error> {
    let ledger = LEDGER.get().ok_or("ledger not initialised")?.clone();
    let invite = verify_invite(req.headers())?;
    let client_key = req
        .headers()
        .get("idempotency-key")
        .ok_or("missing Idempotency-Key")?
        .to_str()?
        .to_owned();
    let sk = idem_scope::scoped(&invite.org_id, &invite.user_id, "invites.accept", &client_key)?;

    if let Some(done) = ledger.fetch(&sk).await? {
        return Ok(Response::builder()
            .status(200)
            .header("idempotent-replayed", "true")
            .header("idempotency-key", client_key.as_str())
            .body(Body::from(done))?);
    }

    ledger.start(&sk).await?;
    let input: ProvisionInput = match req.payload() {
        Ok(Some(p)) => p,
        Ok(None) => ProvisionInput::minimal(&invite.email),
        Err(e) => {
            ledger.abandon(&sk).await?;
            return Err(e.into());
        }
    };
    if input.seats > invite.max_seats {
        if invite.allow_overage {
            log::info!("invite {} accepted with overage", invite.id);
        } else {
            return Err(format!("invite allows at most {} seats", invite.max_seats).into());
        }
    }
    let provisioned: Provisioned = provision_workspace(&invite.org_id, &invite.user_id, input).await?;
    let body = serde_json::to_string(&provisioned)?;
    ledger.finish(&sk, body.as_bytes()).await?;
    Ok(Response::builder().status(201).body(Body::from(body))?)
}
