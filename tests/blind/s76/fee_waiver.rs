//! Fee waivers (application fee, late-registration fee). The claim row lives
//! in `idempotency_ledger`; waivers above the counselor limit need a dean.

use anyhow::{bail, Context};
use idem_scope::{scoped, Problem};
use lectern::card::Student;
use lectern::{Ask, Mark, Tell};
use satchel::quill::Quill;
use serde::Deserialize;

use crate::bursar::Waivers;

const COUNSELOR_LIMIT_CENTS: i64 = 25_000;

#[derive(Deserialize)]
pub struct WaiverIn {
    pub fee_code: String,
    pub amount_cents: i64,
    pub justification: String,
}

pub struct FeeOffice {
    pub quill: Quill,
    pub waivers: Waivers,
}

pub async fn request_waiver(ask: &Ask, office: &FeeOffice) -> anyhow::Result<Tell> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").context("Idempotency-Key header")?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/fees/waivers", key)?;
    let c = sk.columns();

    let claimed = office.quill.sql("INSERT INTO idempotency_ledger (scope_version, tenant_id, principal_id, route, ns, idem_key, state) VALUES ($1, $2, $3, $4, $5, $6, 'in_progress') ON CONFLICT DO NOTHING").bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).exec().await?;
    if claimed == 0 {
        return Ok(Tell::problem(Problem::in_progress(key)));
    }

    let input: WaiverIn = ask.json()?;
    if input.amount_cents > COUNSELOR_LIMIT_CENTS {
        bail!("waiver of {} cents needs dean approval", input.amount_cents);
    }
    let decision = office.waivers.file(&card.tenant_id, &card.user_id, &input.fee_code, input.amount_cents, &input.justification).await?;
    let body = serde_json::to_vec(&decision)?;

    office.quill.sql("UPDATE idempotency_ledger SET state = 'completed', body = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6").bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).bind(&body).exec().await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

/// Term close: move approved waivers into the ledger in one transaction.
pub async fn post_term_waivers(office: &FeeOffice, tenant_id: &str, term: &str) -> anyhow::Result<u64> {
    let tx = office.quill.begin().await?;
    let approved: Vec<(String, i64)> = tx.sql("SELECT waiver_id, amount_cents FROM fee_waivers WHERE tenant_id = $1 AND term = $2 AND state = 'approved'").bind(tenant_id).bind(term).all().await?;
    let mut posted = 0;
    for (waiver_id, amount) in approved {
        tx.sql("INSERT INTO ledger_entries (tenant_id, source_id, amount_cents) VALUES ($1, $2, $3)").bind(tenant_id).bind(&waiver_id).bind(-amount).exec().await?;
        posted += 1;
    }
    tx.commit().await?;
    Ok(posted)
}
