//! Schema steps for the Amazon Keyspaces (CQL) tables used by the mobile
//! sync service. Run by `bushel::schema` at deploy time, in order.

use bushel::schema::{Plan, Step};

pub fn plan() -> Plan {
    Plan::new("keyspaces-mobile")
        .step(Step::cql(
            14,
            "dedup client requests",
            "CREATE TABLE IF NOT EXISTS coop_ks.dedup_client_requests (
                org_id      text,
                idem_key    text,
                response    blob,
                created_at  timestamp,
                PRIMARY KEY ((org_id), idem_key)
            ) WITH default_time_to_live = 86400
              AND CUSTOM_PROPERTIES = {'capacity_mode': {'throughput_mode': 'PAY_PER_REQUEST'}}",
        ))
        .step(Step::cql(
            15,
            "scoped replay records",
            "CREATE TABLE IF NOT EXISTS coop_ks.replay_scoped (
                org_id      text,
                user_id     text,
                route       text,
                ns          text,
                idem_key    text,
                status      text,
                response    blob,
                PRIMARY KEY ((org_id, user_id), route, ns, idem_key)
            ) WITH default_time_to_live = 86400",
        ))
        .step(Step::cql(
            16,
            "outbox",
            "CREATE TABLE IF NOT EXISTS coop_ks.outbox_events (
                event_id    text PRIMARY KEY,
                payload     blob,
                published   boolean
            )",
        ))
}
