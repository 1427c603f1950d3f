use anyhow::Result;
use idem_scope::{Fingerprint, ScopedKey};
use limbo::Connection;
use serde::Serialize;

use crate::adjusting::{assess, Adjusters, Assessment, InsuranceClaim};

pub const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS idempotency_requests (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BLOB NOT NULL,
    status        TEXT NOT NULL,
    response      BLOB,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) STRICT";

#[derive(Serialize)]
struct Filed<'a> {
    claim_number: &'a str,
    assessment: &'a Assessment,
}

pub async fn file_claim(
    conn: &Connection,
    key: &ScopedKey,
    fp: &Fingerprint,
    claim: &InsuranceClaim,
) -> Result<Vec<u8>> {
    let c = key.columns();
    conn.execute("INSERT INTO idempotency_requests (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'in_progress')",
        (c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key, fp.as_bytes().to_vec()),
    )
    .await?;

    let assessment = assess(claim).await?;
    let body = serde_json::to_vec(&Filed { claim_number: &claim.number, assessment: &assessment })?;

    conn.execute(
        "UPDATE idempotency_requests SET status = 'completed', response = ?1 WHERE scope_version = ?2 AND tenant_id = ?3 AND principal_id = ?4 AND route = ?5 AND ns = ?6 AND idem_key = ?7",
        (body.clone(), c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key),
    )
    .await?;
    Ok(body)
}

pub async fn amend_claim(
    conn: &Connection,
    adjusters: &Adjusters,
    key: &ScopedKey,
    fp: &Fingerprint,
    claim: &InsuranceClaim,
) -> Result<Vec<u8>> {
    let c = key.columns();
    conn.execute("INSERT INTO idempotency_requests (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'in_progress')",
        (c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key, fp.as_bytes().to_vec()),
    )
    .await?;

    let outcome = async {
        let case = adjusters.claim(&claim.number).await?;
        let assessment = assess(claim).await?;
        case.close().await?;
        Ok::<_, anyhow::Error>(serde_json::to_vec(&assessment)?)
    }
    .await;

    match outcome {
        Ok(body) => {
            conn.execute(
                "UPDATE idempotency_requests SET status = 'completed', response = ?1 WHERE scope_version = ?2 AND tenant_id = ?3 AND principal_id = ?4 AND route = ?5 AND ns = ?6 AND idem_key = ?7",
                (body.clone(), c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key),
            )
            .await?;
            Ok(body)
        }
        Err(e) => {
            conn.execute(
                "DELETE FROM idempotency_requests WHERE scope_version = ?1 AND tenant_id = ?2 AND principal_id = ?3 AND route = ?4 AND ns = ?5 AND idem_key = ?6",
                (c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key),
            )
            .await?;
            Err(e)
        }
    }
}
