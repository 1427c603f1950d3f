use std::time::Duration;

use gatehouse::http::{Middleware, Next, Request, Response};
use gatehouse::{PrincipalId, TenantId};
use idem_scope::{scoped, Fingerprint, IdempotencyKey, Problem};
use ledgerkit::idem::{ClaimOutcome, ResponseVault};

pub const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";
const PUBLIC_TENANT: &str = "public";

pub struct ReplayMiddleware {
    vault: ResponseVault,
    lease: Duration,
}

impl ReplayMiddleware {
    pub fn new(vault: ResponseVault) -> Self {
        Self { vault, lease: Duration::from_secs(120) }
    }
}

impl Middleware for ReplayMiddleware {
    async fn handle(&self, req: Request, next: Next<'_>) -> Result<Response, gatehouse::Error> {
        let Some(raw) = req.headers().get(IDEMPOTENCY_HEADER) else {
            return next.run(req).await;
        };
        let key = match IdempotencyKey::parse_lenient(raw.as_bytes()) {
            Ok(k) => k,
            Err(e) => return Ok(Response::problem(Problem::invalid_key(&e.to_string()))),
        };
        let tenant = req.extensions().get::<TenantId>().map_or(PUBLIC_TENANT, |t| t.as_str()).to_owned();
        let Some(principal) = req.extensions().get::<PrincipalId>().map(|p| p.to_string()) else {
            return Ok(Response::problem(Problem::invalid_key("request is not authenticated")));
        };
        let route = req.matched_route().unwrap_or(req.uri().path()).to_owned();
        let sk = match scoped(&tenant, &principal, &route, key.as_str()) {
            Ok(sk) => sk,
            Err(e) => return Ok(Response::problem(Problem::invalid_key(&e.to_string()))),
        };

        let (req, body) = req.buffer_body().await?;
        let fp = Fingerprint::of(&route, &body);
        match self.vault.claim(&sk, &fp, self.lease).await? {
            ClaimOutcome::Claimed => {}
            ClaimOutcome::Replay(stored) => return Ok(stored.into_response().with_header("Idempotent-Replayed", "true")),
            ClaimOutcome::Busy => return Ok(Response::problem(Problem::in_progress(key.as_str()))),
            ClaimOutcome::Mismatch => return Ok(Response::problem(Problem::mismatch(key.as_str()))),
        }

        match next.run(req).await {
            Ok(resp) if resp.status().as_u16() < 500 => {
                let stored = resp.snapshot().await;
                self.vault.complete(&sk, &stored).await?;
                Ok(stored.into_response())
            }
            Ok(resp) => {
                self.vault.release(&sk).await?;
                Ok(resp)
            }
            Err(e) => {
                self.vault.release(&sk).await?;
                Err(e)
            }
        }
    }
}
