use cassandra_cpp::{stmt, Session};
use idem_scope::ScopedKey;

const KEYSPACE_DDL: &str = "CREATE KEYSPACE IF NOT EXISTS freight WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3}";

const REPLAY_GUARD_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS freight.replay_guard (
    tenant_id text,
    idem_key  text,
    status    text,
    response  blob,
    PRIMARY KEY ((tenant_id), idem_key)
) WITH default_time_to_live = 172800
"#;

const RECORDS_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS freight.idempotency_records (
    scope_version text,
    tenant_id     text,
    principal_id  text,
    route         text,
    ns            text,
    idem_key      text,
    fingerprint   blob,
    status        text,
    response      blob,
    PRIMARY KEY ((scope_version, tenant_id), principal_id, route, ns, idem_key)
) WITH default_time_to_live = 86400
"#;

const TRACKING_DDL: &str = "CREATE TABLE IF NOT EXISTS freight.tracking_events (shipment_id text, at timestamp, code text, PRIMARY KEY ((shipment_id), at))";

pub async fn migrate(session: &Session) -> cassandra_cpp::Result<()> {
    for ddl in [KEYSPACE_DDL, REPLAY_GUARD_DDL, RECORDS_DDL, TRACKING_DDL] {
        session.execute(ddl).await?;
    }
    Ok(())
}

pub async fn fetch_response(session: &Session, key: &ScopedKey) -> cassandra_cpp::Result<Option<Vec<u8>>> {
    let c = key.columns();
    let mut q = stmt!("SELECT response FROM freight.idempotency_records WHERE scope_version = ? AND tenant_id = ? AND principal_id = ? AND route = ? AND ns = ? AND idem_key = ?");
    q.bind(0, c.scope_version)?;
    q.bind(1, c.tenant_id)?;
    q.bind(2, c.principal_id)?;
    q.bind(3, c.route)?;
    q.bind(4, c.ns)?;
    q.bind(5, c.idem_key)?;
    let rows = session.execute(&q).await?;
    match rows.first_row() {
        Some(row) => Ok(Some(row.get_by_name::<Vec<u8>>("response")?)),
        None => Ok(None),
    }
}
