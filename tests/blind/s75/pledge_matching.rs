//! Corporate gift matching: an employee's donation is matched by their
//! employer. Employers are onboarded as organisations of their own.
use std::time::Duration;

use idem_scope::{scoped, Component, Fingerprint, Problem, ScopeError};
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(30 * 86_400);

#[derive(Deserialize)]
pub struct MatchClaim {
    pub donation_id: String,
    pub employer_ref: String,
    pub employee_name: String,
}

pub struct Matching {
    pub batten: Batten,
    pub employers: crate::giving::Employers,
}

fn scope_fault(e: ScopeError) -> Flub {
    match e {
        ScopeError::ContainsSeparator(Component::Key) => Flub::from(Problem::invalid_key("key contains a reserved character")),
        ScopeError::ContainsSeparator(_) | ScopeError::Missing(_) => Flub::forbidden("employer is not set up for matching"),
        other => Flub::bad_request(other),
    }
}

pub async fn claim_match(cue: Cue, patron: Patron, JsonPart(req): JsonPart<MatchClaim>, house: House<Matching>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let employer = house.employers.resolve(&req.employer_ref).await?;
    let org = employer.org_id.replace('|', "");
    let sk = scoped(&org, &patron.user_id, "claim_match", key).map_err(scope_fault)?;
    let fp = Fingerprint::of("claim_match", cue.body());
    let certificate_name = req.employee_name.replace('|', " ");
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let matched = house.employers.match_gift(&org, &req.donation_id, &certificate_name).await?;
            let body = serde_json::to_vec(&matched).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}
