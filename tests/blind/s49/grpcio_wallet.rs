//! Wallet gRPC service (grpcio). Replays completed debits by idempotency metadata.
use futures::FutureExt;
use grpcio::{RpcContext, RpcStatus, RpcStatusCode, UnarySink};

use crate::kv::ReplayStore;
use crate::proto::wallet::{DebitReply, DebitRequest};
use crate::proto::wallet_grpc::Wallet;

const IDEMPOTENCY_METADATA: &str = "idempotency-key";

#[derive(Clone)]
pub struct WalletService {
    replay: ReplayStore,
    ledger: crate::ledger::Ledger,
}

fn metadata_value(ctx: &RpcContext<'_>, name: &str) -> Option<String> {
    ctx.request_headers()
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
}

impl Wallet for WalletService {
    fn debit(&mut self, ctx: RpcContext<'_>, req: DebitRequest, sink: UnarySink<DebitReply>) {
        let trace_id = metadata_value(&ctx, "x-request-id").unwrap_or_default();
        let Some(key) = metadata_value(&ctx, IDEMPOTENCY_METADATA) else {
            let status = RpcStatus::with_message(RpcStatusCode::INVALID_ARGUMENT, "idempotency-key required".into());
            ctx.spawn(sink.fail(status).map(|_| ()));
            return;
        };
        let Some(tenant) = metadata_value(&ctx, "x-tenant-id") else {
            ctx.spawn(sink.fail(RpcStatus::new(RpcStatusCode::UNAUTHENTICATED)).map(|_| ()));
            return;
        };
        let subject = crate::auth::subject(&ctx);
        log::info!("debit trace={} key={}", trace_id, key);

        let replay = self.replay.clone();
        let ledger = self.ledger.clone();
        let fut = async move {
            if let Some(prev) = replay.get(&key).await {
                return sink.success(prev).await;
            }
            let reply = ledger.debit(&req).await;
            match idem_scope::scoped(&tenant, &subject, "wallet.debit", &key) {
                Ok(scoped) => replay.put(scoped.storage_key(), reply.clone()).await,
                Err(e) => log::warn!("not caching debit reply: {e}"),
            }
            sink.success(reply).await
        };
        ctx.spawn(fut.map(|_| ()));
    }
}
