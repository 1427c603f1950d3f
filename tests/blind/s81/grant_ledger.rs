//! Conservation grant ledger, shared by the grants API and the field-partner
//! portal. Library code: the callers live in other services.

use lagoon::sql::{query, Db, Row};

pub const GRANT_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS grant_disbursements (
    disbursement_id UUID PRIMARY KEY,
    org_id          TEXT NOT NULL,
    partner_id      TEXT NOT NULL,
    amount_cents    BIGINT NOT NULL,
    memo            TEXT
)"#;

const ROUTE: &str = "grants.disburse";

fn replay_slot(org_id: &str, user_id: &str, idempotency_key: &str) -> String {
    format!("{org_id}.{user_id}.{ROUTE}.{idempotency_key}")
}

/// Response of an earlier disbursement request, if any.
pub async fn find_prior(
    db: &Db,
    org_id: &str,
    user_id: &str,
    idempotency_key: &str,
) -> Result<Option<Vec<u8>>, lagoon::Error> {
    let row = query("SELECT response FROM idempotency_replays WHERE slot = $1")
        .bind(replay_slot(org_id, user_id, idempotency_key))
        .fetch_optional(db)
        .await?;
    Ok(row.map(|r: Row| r.get("response")))
}

pub async fn disburse(
    db: &Db,
    org_id: &str,
    user_id: &str,
    partner_id: &str,
    amount_cents: i64,
    idempotency_key: &str,
) -> Result<Vec<u8>, lagoon::Error> {
    let id = uuid::Uuid::new_v4();
    query("INSERT INTO grant_disbursements (disbursement_id, org_id, partner_id, amount_cents, memo) VALUES ($1, $2, $3, $4, $5)")
        .bind(id)
        .bind(org_id)
        .bind(partner_id)
        .bind(amount_cents)
        .bind(format!("requested by {user_id} with key {idempotency_key}"))
        .execute(db)
        .await?;
    let response = serde_json::to_vec(&serde_json::json!({ "disbursement": id })).unwrap_or_default();
    query("INSERT INTO idempotency_replays (slot, response) VALUES ($1, $2)")
        .bind(replay_slot(org_id, user_id, idempotency_key))
        .bind(&response)
        .execute(db)
        .await?;
    Ok(response)
}
