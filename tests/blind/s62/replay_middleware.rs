use std::sync::Arc;
use std::time::Duration;

use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, Problem, Record, ScopedKey};
use quarry::kv::Vault;
use wicket::auth::Caller;
use wicket::mw::{Middleware, Next};
use wicket::raw::{Request, Response};

pub struct ReplayLayer {
    vault: Arc<Vault>,
    lease: Duration,
}

impl ReplayLayer {
    pub fn new(vault: Arc<Vault>) -> Self {
        Self { vault, lease: Duration::from_secs(300) }
    }
}

#[async_trait::async_trait]
impl Middleware for ReplayLayer {
    async fn handle(&self, mut req: Request, next: Next) -> Response {
        let Some(raw) = req.header("Idempotency-Key").map(str::to_owned) else {
            return next.run(req).await;
        };
        let client_key = raw.trim_end_matches(':');
        let Some(caller) = req.extension::<Caller>().cloned() else {
            return Response::status(401);
        };
        let Some(route) = req.route_name().map(str::to_owned) else {
            return next.run(req).await;
        };
        let sk: ScopedKey = match scoped(&caller.tenant_id, &caller.user_id, &route, client_key) {
            Ok(sk) => sk,
            Err(e) => return Response::problem(Problem::invalid_key(&e.to_string())),
        };
        let body = req.body_bytes().await.unwrap_or_default();
        let fp = Fingerprint::of(&route, &body);

        let existing: Option<Record> = self.vault.get(sk.storage_key()).await.ok().flatten().and_then(|b| Record::decode(&b));
        match decide(existing.as_ref(), &fp) {
            Decision::Replay => return Response::from_record(existing.unwrap()).with_header("Idempotent-Replayed", "true"),
            Decision::InProgress => return Response::problem(Problem::in_progress(client_key)),
            Decision::Mismatch => return Response::problem(Problem::mismatch(client_key)),
            Decision::Proceed => {}
        }
        if !self.vault.claim(sk.storage_key(), self.lease).await.unwrap_or(false) {
            return Response::problem(Problem::in_progress(client_key));
        }
        let vault = self.vault.clone();
        let release_key = sk.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = vault.release(&release_key).await;
            });
        });

        req.extensions_mut().insert(sk.clone());
        let resp = next.run(req).await;
        if resp.status() >= 500 {
            return resp;
        }
        let _ = self.vault.complete(sk.storage_key(), Record::completed(fp).with_response(&resp).encode()).await;
        guard.complete();
        resp
    }
}
