//! Generic replay wrapper for simple POST endpoints, keyed by the matched route.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn with_replay<F, Fut>(turn: Turn, skier: Skier, drift: &Drift, run: F) -> Result<Carve, Wipeout>
where
    F: FnOnce(Turn) -> Fut,
    Fut: std::future::Future<Output = Result<Carve, Wipeout>>,
{
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?.to_owned();
    let route = turn.route_pattern().trim_start_matches('/').to_owned();
    let log_path = turn.path().trim_end_matches('/').to_owned();

    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, &route, &key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let metric_name = route.replace('/', ".");
    tracing::debug!(path = %log_path, metric = %metric_name, "replay miss");
    let carve = run(turn).await?;
    drift.put(sk.storage_key(), carve.body_bytes()).await?;
    Ok(carve)
}
