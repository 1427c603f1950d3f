use brindle::auth::Caller;
use brindle::{Ctx, Reply, State, Status};
use idem_scope::{scoped, Fingerprint, Problem};
use sluice::sql::{query, Pool};

use crate::psp::{PspClient, PspError};

#[derive(Clone)]
pub struct ChargeDeps {
    pub pool: Pool,
    pub psp: PspClient,
}

pub async fn renew(State(deps): State<ChargeDeps>, ctx: Ctx, caller: Caller, subscription_id: String) -> Reply {
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "subscriptions.renew", client_key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    let c = sk.columns();
    let fp = Fingerprint::of("subscriptions.renew", subscription_id.as_bytes());
    match run(&deps, &caller, &sk, &fp, &subscription_id).await {
        Ok(body) => Reply::bytes(Status::CREATED, body),
        Err(RenewError::Busy) => Reply::problem(Problem::in_progress(c.idem_key)),
        Err(RenewError::Psp(e)) => Reply::status(Status::BAD_GATEWAY).text(e.to_string()),
        Err(RenewError::Db(e)) => Reply::status(Status::SERVICE_UNAVAILABLE).text(e.to_string()),
    }
}

pub enum RenewError {
    Busy,
    Psp(PspError),
    Db(sluice::sql::SqlError),
}

impl From<PspError> for RenewError {
    fn from(e: PspError) -> Self { RenewError::Psp(e) }
}
impl From<sluice::sql::SqlError> for RenewError {
    fn from(e: sluice::sql::SqlError) -> Self { RenewError::Db(e) }
}

async fn run(deps: &ChargeDeps, caller: &Caller, sk: &idem_scope::ScopedKey, fp: &Fingerprint, subscription_id: &str) -> Result<Vec<u8>, RenewError> {
    let c = sk.columns();
    let claimed = query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress') ON CONFLICT DO NOTHING")
        .bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key)
        .bind(fp.as_bytes().as_slice())
        .execute(&deps.pool)
        .await?
        .rows_affected();
    if claimed == 0 {
        return Err(RenewError::Busy);
    }

    let invoice = deps.psp.charge_subscription(&caller.tenant_id, subscription_id).await?;
    let body = serde_json::to_vec(&invoice).unwrap_or_default();

    query("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
        .bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key)
        .bind(&body)
        .execute(&deps.pool)
        .await?;
    Ok(body)
}
