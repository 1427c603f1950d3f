use std::fmt::Write as _;

use brindle::auth::Caller;
use brindle::{Json, Reply, State, Status};
use dryoc::generichash::{GenericHash, Key};
use serde::{Deserialize, Serialize};
use sluice::sql::{query, Pool};

use crate::pledges::{record_pledge, PledgeReceipt};

#[derive(Deserialize, Serialize)]
pub struct PledgeInput {
    pub campaign_id: String,
    pub amount_minor: i64,
    pub recurring: bool,
    pub donor_note: Option<String>,
}

fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

pub async fn pledge(State(pool): State<Pool>, caller: Caller, Json(input): Json<PledgeInput>) -> Reply {
    let canonical = match serde_json::to_vec(&input) {
        Ok(c) => c,
        Err(_) => return Reply::status(Status::BAD_REQUEST),
    };
    let body_hash: Vec<u8> = GenericHash::hash_with_defaults_to_vec::<_, Key>(&canonical, None).unwrap_or_default();

    // first writer wins; a resubmitted pledge finds its row already present
    let inserted = query(
        "INSERT INTO idempotency_keys (tenant_id, user_id, route, idem_key, fingerprint, status) \
         VALUES ($1, $2, $3, $4, $5, 'recorded') ON CONFLICT (tenant_id, user_id, route, idem_key) DO NOTHING",
    )
    .bind(&caller.tenant_id)
    .bind(&caller.user_id)
    .bind("pledges.create")
    .bind(to_hex(&body_hash))
    .bind(&body_hash)
    .execute(&pool)
    .await
    .map(|r| r.rows_affected() == 1);

    match inserted {
        Ok(true) => {}
        Ok(false) => return Reply::status(Status::OK).text("pledge already recorded"),
        Err(e) => return Reply::status(Status::SERVICE_UNAVAILABLE).text(e.to_string()),
    }

    let receipt: PledgeReceipt = record_pledge(&caller, &input).await;
    Reply::json(Status::CREATED, &receipt)
}
