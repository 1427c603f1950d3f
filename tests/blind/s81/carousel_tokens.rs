//! Ride tokens for the endangered-species carousel and the safari train,
//! bought at the ride kiosks. The kiosk firmware sends no Idempotency-Key.

use enclosure::extract::{RawBody, Shared};
use enclosure::{Fault, Reply, Status};
use idem_scope::Fingerprint;
use lagoon::sql::{query, Db, Row};
use sha2::{Digest, Sha512_256};

use crate::extractors::Caller;

const ROUTE: &str = "rides.tokens.buy";

pub struct RideDesk {
    pub db: Db,
    pub tokens: crate::rides::TokenBank,
}

fn token_key(raw: &[u8]) -> String {
    format!("{:x}", Sha512_256::digest(raw))
}

pub async fn buy(Shared(desk): Shared<RideDesk>, caller: Caller, RawBody(raw): RawBody) -> Result<Reply, Fault> {
    let previous: Option<Row> = query("SELECT response FROM ride_token_idempotency WHERE org_id = $1 AND user_id = $2 AND route = $3 AND idem_key = $4")
        .bind(&caller.org_id)
        .bind(&caller.user_id)
        .bind(ROUTE)
        .bind(token_key(&raw))
        .fetch_optional(&desk.db)
        .await?;
    if let Some(row) = previous {
        return Ok(Reply::bytes(Status::OK, row.get::<Vec<u8>>("response")).replayed());
    }

    let order: crate::rides::TokenOrder = serde_json::from_slice(&raw).map_err(Fault::bad_request)?;
    let tokens = desk.tokens.issue(&caller.org_id, order.rides, order.ride_kind).await?;
    let body = serde_json::to_vec(&tokens).map_err(Fault::internal)?;
    let fingerprint = Fingerprint::of(ROUTE, &raw);
    query("INSERT INTO ride_token_idempotency (org_id, user_id, route, idem_key, fingerprint, response) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING")
        .bind(&caller.org_id)
        .bind(&caller.user_id)
        .bind(ROUTE)
        .bind(token_key(&raw))
        .bind(fingerprint.as_bytes().as_slice())
        .bind(&body)
        .execute(&desk.db)
        .await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
