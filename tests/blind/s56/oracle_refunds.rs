use idem_scope::{scoped, Fingerprint, Problem, ScopedKey};
use oracle::{Connection, ErrorKind};

use crate::gateway::RefundGateway;

pub const SCHEMA: &str = "CREATE TABLE idempotency_records (
    scope_version VARCHAR2(8)   NOT NULL,
    tenant_id     VARCHAR2(64)  NOT NULL,
    principal_id  VARCHAR2(64)  NOT NULL,
    route         VARCHAR2(96)  NOT NULL,
    ns            VARCHAR2(2)   NOT NULL,
    idem_key      VARCHAR2(255) NOT NULL,
    fingerprint   RAW(32)       NOT NULL,
    status        VARCHAR2(16)  NOT NULL,
    response      BLOB,
    CONSTRAINT pk_idempotency_records PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)";

pub struct RefundCommand<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub idempotency_key: &'a str,
    pub charge_id: &'a str,
    pub amount_minor: i64,
    pub raw_body: &'a [u8],
}

pub enum RefundResult {
    Done(Vec<u8>),
    Rejected(Problem),
}

fn scope_of(cmd: &RefundCommand<'_>) -> Result<ScopedKey, Problem> {
    scoped(cmd.tenant_id, cmd.user_id, "refunds.create", cmd.idempotency_key)
        .map_err(|e| Problem::invalid_key(&e.to_string()))
}

pub fn execute_refund(conn: &Connection, gateway: &RefundGateway, cmd: RefundCommand<'_>) -> oracle::Result<RefundResult> {
    let sk = match scope_of(&cmd) {
        Ok(sk) => sk,
        Err(p) => return Ok(RefundResult::Rejected(p)),
    };
    let c = sk.columns();
    let fp = Fingerprint::of("refunds.create", cmd.raw_body);

    let inserted = conn.execute(
        "INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES (:1, :2, :3, :4, :5, :6, :7, 'in_progress')",
        &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key, &fp.as_bytes().as_slice()],
    );
    if let Err(e) = inserted {
        if matches!(e.kind(), ErrorKind::OciError) && e.to_string().contains("ORA-00001") {
            return Ok(RefundResult::Rejected(Problem::in_progress(cmd.idempotency_key)));
        }
        return Err(e);
    }

    let charge = gateway.load_charge(cmd.tenant_id, cmd.charge_id)?;
    if charge.refundable_minor < cmd.amount_minor {
        return Ok(RefundResult::Rejected(Problem::invalid_key("amount exceeds refundable balance")));
    }
    let refund = gateway.refund(&charge, cmd.amount_minor)?;
    let body = serde_json::to_vec(&refund).expect("refund serialises");

    conn.execute(
        "UPDATE idempotency_records SET status = 'completed', response = :1 WHERE scope_version = :2 AND tenant_id = :3 AND principal_id = :4 AND route = :5 AND ns = :6 AND idem_key = :7",
        &[&body, &c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key],
    )?;
    conn.commit()?;
    Ok(RefundResult::Done(body))
}
