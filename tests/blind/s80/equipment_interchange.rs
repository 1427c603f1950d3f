//! Equipment interchange receipts (EIR): issued when a container leaves or
//! enters the terminal on a truck. Hauliers request the EIR after the pass.

use ballast::sql::{query, Pool};
use hawser::extract::{Json, Shared};
use hawser::pass::Haulier;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct EirRequest {
    pub visit_no: String,
    pub container_no: String,
    pub direction: String,
}

#[derive(Serialize)]
pub struct Eir {
    pub eir_no: String,
    pub damage: Vec<String>,
    pub seal_no: Option<String>,
}

#[derive(Debug, displaydoc::Display)]
pub enum EirError {
    /// visit {0} has no gate transaction yet
    NoGateTransaction(String),
    /// container {0} is not on visit {1}
    NotOnVisit(String, String),
}

pub async fn issue_eir(pool: Shared<Pool>, h: Haulier, call: Call, Json(req): Json<EirRequest>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&h.account_id, &h.client_id, call.route_template(), k).map_err(Snag::bad_request)?;
    let cols = key.columns();

    let inserted = query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES ($1, $2, $3, $4, $5, $6, 'in_progress') ON CONFLICT DO NOTHING").bind(cols.scope_version).bind(cols.tenant_id).bind(cols.principal_id).bind(cols.route).bind(cols.ns).bind(cols.idem_key).execute(&pool).await?;
    if inserted.rows_affected() == 0 {
        return Ok(Answer::status(Status::CONFLICT));
    }

    let pass = gate_core::transaction_for(&req.visit_no).await?;
    let Some(pass) = pass else {
        return Err(Snag::unprocessable(EirError::NoGateTransaction(req.visit_no.clone()).to_string()));
    };
    if !pass.containers.contains(&req.container_no) {
        return Err(Snag::unprocessable(EirError::NotOnVisit(req.container_no.clone(), req.visit_no.clone()).to_string()));
    }

    let eir = Eir { eir_no: pass.eir_no(&req.container_no), damage: pass.damage_for(&req.container_no), seal_no: pass.seal_for(&req.container_no) };
    let answer = Answer::json(Status::CREATED, &eir);
    query(
        "UPDATE idempotency_records SET status = 'completed', response = $7 \
         WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6",
    )
    .bind(cols.scope_version).bind(cols.tenant_id).bind(cols.principal_id).bind(cols.route).bind(cols.ns).bind(cols.idem_key)
    .bind(answer.to_bytes())
    .execute(&pool)
    .await?;
    Ok(answer)
}
