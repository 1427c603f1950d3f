//! Donations from the "support the season" page: one-off gifts and pledges.
use idem_scope::{scoped, Problem};
use loft::pinrail::PinRail;
use proscenium::draw::RawPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use sha2::{Digest, Sha256};

const GIFT_ROUTE: &str = "/v1/donations";
const PLEDGE_ROUTE: &str = "/v1/pledges";

const SELECT_RECORD: &str = "SELECT fingerprint, response FROM idempotency_records \
     WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6";
const INSERT_RECORD: &str = "INSERT INTO idempotency_records \
     (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, response) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'completed', $8) ON CONFLICT DO NOTHING";

pub struct Funds {
    pub rail: PinRail,
    pub psp: crate::psp::Client,
}

/// One-off gift. The page posts the same body again when the patron double-clicks.
pub async fn donate(cue: Cue, patron: Patron, RawPart(body): RawPart, funds: House<Funds>) -> Result<Curtain, Flub> {
    let gift: crate::psp::Gift = serde_json::from_slice(&body).map_err(Flub::bad_request)?;
    let digest = format!("{:x}", Sha256::digest(&body));
    let sk = scoped(&patron.org_id, &patron.user_id, GIFT_ROUTE, &digest).map_err(Flub::bad_request)?;
    let cols = sk.columns();
    let seen: Option<(Vec<u8>, Vec<u8>)> = funds
        .rail
        .query(SELECT_RECORD)
        .bind(cols.scope_version)
        .bind(cols.tenant_id)
        .bind(cols.principal_id)
        .bind(cols.route)
        .bind(cols.ns)
        .bind(cols.idem_key)
        .maybe()
        .await?;
    if let Some((_, response)) = seen {
        return Ok(Curtain::replay(Some(response)));
    }
    let charge = funds.psp.charge(&patron.org_id, &gift).await?;
    let response = serde_json::to_vec(&charge).map_err(Flub::internal)?;
    funds
        .rail
        .query(INSERT_RECORD)
        .bind(cols.scope_version)
        .bind(cols.tenant_id)
        .bind(cols.principal_id)
        .bind(cols.route)
        .bind(cols.ns)
        .bind(cols.idem_key)
        .bind(Vec::<u8>::new())
        .bind(&response)
        .run()
        .await?;
    Ok(Curtain::bytes(201, response))
}

/// Recurring pledge; the client sends an Idempotency-Key.
pub async fn pledge(cue: Cue, patron: Patron, RawPart(body): RawPart, funds: House<Funds>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, PLEDGE_ROUTE, key).map_err(Flub::bad_request)?;
    let fingerprint = Sha256::digest(&body).to_vec();
    let cols = sk.columns();
    let existing: Option<(Vec<u8>, Vec<u8>)> = funds
        .rail
        .query(SELECT_RECORD)
        .bind(cols.scope_version)
        .bind(cols.tenant_id)
        .bind(cols.principal_id)
        .bind(cols.route)
        .bind(cols.ns)
        .bind(cols.idem_key)
        .maybe()
        .await?;
    if let Some((stored_fp, response)) = existing {
        if stored_fp != fingerprint {
            return Ok(Curtain::problem(Problem::mismatch(key)));
        }
        return Ok(Curtain::replay(Some(response)));
    }
    let plan: crate::psp::Pledge = serde_json::from_slice(&body).map_err(Flub::bad_request)?;
    let mandate = funds
        .psp
        .mandate(&patron.org_id, &plan)
        .await
        .map_err(|e| Flub::internal(format!("pledge {key} failed: {e}")))?;
    let response = serde_json::to_vec(&mandate).map_err(Flub::internal)?;
    funds
        .rail
        .query(INSERT_RECORD)
        .bind(cols.scope_version)
        .bind(cols.tenant_id)
        .bind(cols.principal_id)
        .bind(cols.route)
        .bind(cols.ns)
        .bind(cols.idem_key)
        .bind(&fingerprint)
        .bind(&response)
        .run()
        .await?;
    Ok(Curtain::bytes(201, response))
}
