use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::scoped;
use wherry::auth::Caller;
use wherry::mw::{Middleware, Next};
use wherry::{Ctx, Reply, Status};

/// Generic replay layer for the export endpoints; the route component is the
/// matched path template.
pub struct ExportReplay {
    vat: Arc<Vat>,
}

impl Middleware for ExportReplay {
    async fn handle(&self, ctx: Ctx, next: Next) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key").map(str::to_owned) else {
            return next.run(ctx).await;
        };
        let Some(caller) = ctx.extensions().get::<Caller>().cloned() else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let route = ctx.matched_path().trim_matches('/').to_owned();
        let sk = match scoped(&caller.tenant_id, &caller.user_id, &route, &key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(idem_scope::Problem::invalid_key(&e.to_string())),
        };
        if let Some(done) = self.vat.get(sk.storage_key()).await.ok().flatten() {
            return Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true");
        }
        let reply = next.run(ctx).await;
        if reply.status().is_success() {
            let _ = self.vat.put(sk.storage_key(), reply.body_bytes().to_vec()).await;
        }
        reply
    }
}

pub fn export_filename(caller: &Caller, kind: &str) -> String {
    let safe_kind = kind.trim_matches('/').replace('/', "-");
    format!("{}-{}-{}.csv", caller.tenant_id, safe_kind, chrono::Utc::now().format("%Y%m%d"))
}
