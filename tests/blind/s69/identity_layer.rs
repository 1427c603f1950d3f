//! Layer that resolves the idempotency scope before the handler runs and
//! replays stored responses.

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use trellis::layer::{Layer, Next};
use trellis::{Code, Cx, Reply};

pub struct ReplayLayer {
    pub bin: Bin,
    pub strict: bool,
}

impl Layer for ReplayLayer {
    async fn call(&self, cx: Cx, next: Next<'_>) -> Reply {
        let Some(key) = cx.header("Idempotency-Key").map(str::to_owned) else {
            return next.run(cx).await;
        };
        let org_id = cx.ident().map(|i| i.org_id.clone()).unwrap_or_default();
        let user_id = match cx.ident() {
            Some(i) => i.user_id.clone(),
            None if self.strict => return Reply::problem(Problem::invalid_key("authentication required")),
            None => return next.run(cx).await,
        };
        let route = cx.route_name().to_owned();
        let Ok(sk) = scoped(&org_id, &user_id, &route, &key) else {
            return Reply::problem(Problem::invalid_key("bad scope"));
        };
        if let Ok(Some(prev)) = self.bin.get(sk.storage_key()).await {
            return Reply::bytes(Code::OK, prev).header("Idempotent-Replayed", "true");
        }
        let reply = next.run(cx).await;
        if reply.code().is_success() {
            let _ = self.bin.put(sk.storage_key(), reply.body_bytes()).await;
        }
        reply
    }
}

pub struct StrictReplayLayer {
    pub bin: Bin,
}

impl Layer for StrictReplayLayer {
    async fn call(&self, cx: Cx, next: Next<'_>) -> Reply {
        let Some(key) = cx.header("Idempotency-Key").map(str::to_owned) else {
            return Reply::problem(Problem::missing_key());
        };
        let ident = match cx.ident().ok_or(Code::UNAUTHORIZED) {
            Ok(i) => i.clone(),
            Err(c) => return Reply::status(c),
        };
        let Ok(sk) = scoped(&ident.org_id, &ident.user_id, cx.route_name(), &key) else {
            return Reply::problem(Problem::invalid_key("bad scope"));
        };
        if let Ok(Some(prev)) = self.bin.get(sk.storage_key()).await {
            return Reply::bytes(Code::OK, prev);
        }
        let reply = next.run(cx).await;
        let _ = self.bin.put(sk.storage_key(), reply.body_bytes()).await;
        reply
    }
}
