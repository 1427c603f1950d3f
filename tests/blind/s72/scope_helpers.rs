//! Shared helpers so handlers never build keys by hand.

use idem_scope::{scoped, scoped_server, Problem, ScopedKey};
use portcullis::who::{Member, Robot};
use portcullis::{Call, Reply};

pub fn client_scope(call: &Call, member: &Member, route: &str) -> Result<ScopedKey, Reply> {
    let raw = call.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let parsed = idem_scope::IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    scoped(&member.org_id, &member.user_id, route, parsed.as_str()).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))
}

pub fn robot_scope(robot: &Robot, route: &str, event_id: &str) -> Result<ScopedKey, Reply> {
    scoped_server(&robot.org_id, &robot.robot_id, route, event_id).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))
}

pub fn display_scope(key: &ScopedKey) -> String {
    let c = key.columns();
    format!("{}/{}/{}/{}", c.tenant_id, c.principal_id, c.route, c.idem_key)
}
