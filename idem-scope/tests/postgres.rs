//! `POSTGRES_SCHEMA` against a real PostgreSQL: a throwaway cluster is created
//! under a temp dir with the machine's `initdb` / `pg_ctl` (PostgreSQL 15 on
//! PATH) and stopped again when the test ends, also on failure.
//!
//! PostgreSQL refuses to run as root, so as root the server commands run as
//! the `postgres` OS user through `runuser`. If no cluster can be started the
//! test fails (it never skips) and says why.

mod support;

use idem_scope::{scoped, scoped_server, Fingerprint, ScopedKey, POSTGRES_SCHEMA};
use postgres::error::SqlState;
use postgres::{Client, NoTls};
use support::pg_cluster::Cluster;

fn connect(cluster: &Cluster) -> Client {
    Client::connect(&cluster.conninfo(), NoTls)
        .unwrap_or_else(|e| panic!("PostgreSQL started but refused a connection: {e}"))
}

fn insert(db: &mut Client, key: &ScopedKey, fp: &Fingerprint) -> Result<u64, postgres::Error> {
    let c = key.columns();
    db.execute(
        "INSERT INTO idempotency_records
             (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress', now() + interval '24 hours')",
        &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key, &&fp.as_bytes()[..]],
    )
}

fn sql_state(res: Result<u64, postgres::Error>) -> SqlState {
    res.expect_err("insert should have been refused")
        .code()
        .cloned()
        .expect("a database error with a SQLSTATE")
}

#[test]
fn composite_primary_key_scopes_rows_by_the_full_tuple() {
    let cluster = Cluster::start();
    let mut db = connect(&cluster);
    db.batch_execute(POSTGRES_SCHEMA)
        .expect("POSTGRES_SCHEMA loads");

    let client_key = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    let fp = Fingerprint::of("POST /v1/charges", br#"{"amount":100}"#);
    let a = scoped("tenant_a", "u1", "POST /v1/charges", client_key).unwrap();
    let b = scoped("tenant_b", "u1", "POST /v1/charges", client_key).unwrap();

    // Same client key under two tenants: two rows.
    assert_eq!(insert(&mut db, &a, &fp).unwrap(), 1);
    assert_eq!(insert(&mut db, &b, &fp).unwrap(), 1);
    let rows: i64 = db
        .query_one(
            "SELECT count(*) FROM idempotency_records WHERE idem_key = $1",
            &[&client_key],
        )
        .unwrap()
        .get(0);
    assert_eq!(rows, 2);

    // The same full tuple again: refused by the primary key.
    assert_eq!(
        sql_state(insert(&mut db, &a, &fp)),
        SqlState::UNIQUE_VIOLATION
    );

    // Every other element of the tuple makes a distinct row too.
    let others = [
        scoped("tenant_a", "u2", "POST /v1/charges", client_key).unwrap(),
        scoped("tenant_a", "u1", "POST /v1/refunds", client_key).unwrap(),
        scoped_server("tenant_a", "u1", "POST /v1/charges", client_key).unwrap(),
    ];
    for k in &others {
        assert_eq!(insert(&mut db, k, &fp).unwrap(), 1, "{k:?}");
    }
    let total: i64 = db
        .query_one("SELECT count(*) FROM idempotency_records", &[])
        .unwrap()
        .get(0);
    assert_eq!(total, 5);

    // The claim completes with a conditional update; the CHECKs hold the vocabulary.
    let c = a.columns();
    let pk = "scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6";
    let done = db
        .execute(
            &format!("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE {pk} AND status = 'in_progress'"),
            &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key, &&b"{\"id\":\"ch_1\"}"[..]],
        )
        .unwrap();
    assert_eq!(done, 1);
    let bad_status = db.execute(
        &format!("UPDATE idempotency_records SET status = 'done' WHERE {pk}"),
        &[
            &c.scope_version,
            &c.tenant_id,
            &c.principal_id,
            &c.route,
            &c.ns,
            &c.idem_key,
        ],
    );
    assert_eq!(sql_state(bad_status), SqlState::CHECK_VIOLATION);
    let bad_ns = db.execute(
        "INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, expires_at)
         VALUES ('v1', 't', 'p', 'r', 'x:', 'k', $1, 'in_progress', now())",
        &[&&fp.as_bytes()[..]],
    );
    assert_eq!(sql_state(bad_ns), SqlState::CHECK_VIOLATION);
}
