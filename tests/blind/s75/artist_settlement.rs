//! Promoter settlements: after the last night the promoter posts the split of
//! the box office. A settlement statement must be booked exactly once.
use idem_scope::Fingerprint;
use loft::pinrail::PinRail;
use proscenium::draw::RawPart;
use proscenium::pass::Promoter;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use sha2::{Digest, Sha512};

const ROUTE: &str = "/v1/settlements";

#[derive(Deserialize)]
pub struct Statement {
    pub engagement_id: String,
    pub gross_minor: i64,
    pub promoter_share_bp: u32,
    pub deductions: Vec<crate::ledger::Deduction>,
}

pub struct Books {
    pub rail: PinRail,
    pub ledger: crate::ledger::Ledger,
}

pub async fn post_settlement(cue: Cue, promoter: Promoter, RawPart(body): RawPart, books: House<Books>) -> Result<Curtain, Flub> {
    let statement: Statement = serde_json::from_slice(&body).map_err(Flub::bad_request)?;

    let mut hasher = Sha512::new();
    hasher.update(statement.engagement_id.as_bytes());
    hasher.update(&body);
    let settle_hash = hasher.finalize().to_vec();
    let fingerprint = Fingerprint::of(ROUTE, &body);

    let done: Option<(Vec<u8>, Vec<u8>)> = books
        .rail
        .query("SELECT fingerprint, response FROM idempotency_records WHERE tenant_id = $1 AND principal_id = $2 AND route = $3 AND idem_key = $4")
        .bind(&promoter.account_id)
        .bind(&promoter.client_id)
        .bind(ROUTE)
        .bind(&settle_hash)
        .maybe()
        .await?;
    if let Some((stored_fp, response)) = done {
        if stored_fp.as_slice() != fingerprint.as_bytes().as_slice() {
            return Ok(Curtain::new(422).text("statement differs from the one already booked"));
        }
        return Ok(Curtain::replay(Some(response)));
    }

    // The ledger writes the settlement and its idempotency row in one transaction.
    let booked = books
        .ledger
        .settle_and_record(&promoter.account_id, &promoter.client_id, ROUTE, settle_hash, &fingerprint, &statement)
        .await?;
    let _ = cue;
    Ok(Curtain::json(201, &booked))
}
