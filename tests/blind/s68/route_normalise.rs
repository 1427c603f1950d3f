use cobble::vault::Vault;
use idem_scope::{scoped, Problem, ScopedKey};
use thimble::auth::Caller;
use thimble::mw::{Middleware, Next};
use thimble::{Exchange, Reply, Status};

/// Generic replay middleware for the partner API: every POST under /partner is
/// deduplicated by the client's key.
pub struct PartnerReplay {
    pub vault: Vault,
}

fn route_of(ex: &Exchange) -> String {
    let path = ex.matched_path().unwrap_or_else(|| ex.path());
    path.trim_matches('/').to_string()
}

fn key_of(ex: &Exchange, caller: &Caller) -> Result<Option<ScopedKey>, Reply> {
    let Some(raw) = ex.header("Idempotency-Key") else {
        return Ok(None);
    };
    let route = route_of(ex);
    scoped(&caller.tenant_id, &caller.user_id, &route, raw)
        .map(Some)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))
}

impl Middleware for PartnerReplay {
    async fn handle(&self, ex: Exchange, next: Next) -> Reply {
        let Some(caller) = ex.ext::<Caller>().cloned() else {
            return Reply::status(Status::Unauthorized);
        };
        let sk = match key_of(&ex, &caller) {
            Ok(Some(sk)) => sk,
            Ok(None) => return next.run(ex).await,
            Err(r) => return r,
        };
        if let Ok(Some(stored)) = self.vault.get(sk.storage_key()).await {
            return Reply::from_stored(stored).with_header("Idempotent-Replayed", "true");
        }
        let reply = next.run(ex).await;
        if reply.status().is_success() {
            let _ = self.vault.put(sk.storage_key(), reply.snapshot()).await;
        }
        reply
    }
}
