//! Claim hedge for the partner API (input dealers, custom applicators).
//! Wraps the partner routes: claims the scoped key, runs the route and
//! stores the answer.

use std::time::Duration;

use bushel::crock::{Claimed, Crock};
use furrow::hedge::{BoxRuling, Downstream, Hedge};
use furrow::warrant::PartnerLink;
use furrow::{Fault, Petition, Ruling, StatusLine};
use idem_scope::{scoped, Fingerprint, IdempotencyKey, Problem};

static IDEM_HEADER: &str = "idempotency-key";

pub struct PartnerClaims {
    pub crock: Crock,
    pub lease: Duration,
}

impl Hedge for PartnerClaims {
    fn around(&self, p: Petition, next: Downstream) -> BoxRuling {
        let crock = self.crock.clone();
        let lease = self.lease;
        Box::pin(async move {
            match run_claimed(crock, lease, p, next).await {
                Ok(r) => r,
                Err(f) => f.into_ruling(),
            }
        })
    }
}

async fn run_claimed(crock: Crock, lease: Duration, p: Petition, next: Downstream) -> Result<Ruling, Fault> {
    let partner = p.locals().get::<PartnerLink>().cloned().ok_or(Fault::status(StatusLine::UNAUTHORIZED))?;
    let raw = p.header_bytes(IDEM_HEADER).ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let ik = IdempotencyKey::parse_lenient(raw).map_err(|e| Fault::problem(Problem::invalid_key(&e.to_string())))?;
    let key = scoped(&partner.org_id, &partner.client_id, p.route_name(), ik.as_str())?;
    let fp = Fingerprint::of(p.route_name(), p.body());

    match crock.claim(key.storage_key(), &fp, lease).await? {
        Claimed::New => {}
        Claimed::Existing(_, Some(stored)) => return Ok(Ruling::ok().header("Idempotent-Replayed", "true").bytes(stored)),
        Claimed::Existing(_, None) => return Ok(Ruling::problem(Problem::in_progress(ik.as_str()))),
    }

    let ruling = next.try_run(p).await?;
    if ruling.status().is_server_error() {
        crock.release(key.storage_key()).await?;
        return Ok(ruling);
    }
    crock.complete(key.storage_key(), ruling.body_bytes()).await?;
    Ok(ruling)
}
