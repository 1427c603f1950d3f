use cdrs::authenticators::StaticPasswordAuthenticator;
use cdrs::cluster::session::{new as new_session, Session};
use cdrs::cluster::{ClusterTcpConfig, NodeTcpConfigBuilder, TcpConnectionPool};
use cdrs::load_balancing::RoundRobin;
use cdrs::query::QueryExecutor;

type CqlSession = Session<RoundRobin<TcpConnectionPool<StaticPasswordAuthenticator>>>;

const KEYSPACE: &str = "CREATE KEYSPACE IF NOT EXISTS notify WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3}";

/// Dedup table of the notification fan-out: one row per request key.
const DEDUP_REQUESTS: &str = "
CREATE TABLE IF NOT EXISTS notify.dedup_requests (
    dedup_key   text PRIMARY KEY,
    tenant_id   text,
    sent_at     timestamp,
    provider_id text
) WITH default_time_to_live = 172800";

/// Newer fan-out path: partitioned per tenant and principal.
const DEDUP_SENDS: &str = "
CREATE TABLE IF NOT EXISTS notify.dedup_sends (
    tenant_id    text,
    principal_id text,
    route        text,
    dedup_key    text,
    sent_at      timestamp,
    PRIMARY KEY ((tenant_id, principal_id), route, dedup_key)
) WITH default_time_to_live = 172800";

pub fn connect(contact_point: &str, user: &str, password: &str) -> cdrs::error::Result<CqlSession> {
    let auth = StaticPasswordAuthenticator::new(user, password);
    let node = NodeTcpConfigBuilder::new(contact_point, auth).build();
    let cluster = ClusterTcpConfig(vec![node]);
    new_session(&cluster, RoundRobin::new())
}

pub fn migrate(session: &CqlSession) -> cdrs::error::Result<()> {
    for stmt in [KEYSPACE, DEDUP_REQUESTS, DEDUP_SENDS] {
        session.query(stmt)?;
    }
    Ok(())
}
