//! Notes service (grpcio). Kiosk devices call without user credentials.
use futures::FutureExt;
use grpcio::{RpcContext, UnarySink};

use crate::proto::notes::{CreateNoteReply, CreateNoteRequest};

#[derive(Clone)]
pub struct Notes {
    replay: crate::kv::ReplayStore,
    tenant_id: String,
}

fn header(ctx: &RpcContext<'_>, name: &str) -> Option<String> {
    ctx.request_headers()
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .and_then(|(_, v)| std::str::from_utf8(v).ok().map(str::to_owned))
}

impl crate::proto::notes_grpc::Notes for Notes {
    fn create_note(&mut self, ctx: RpcContext<'_>, req: CreateNoteRequest, sink: UnarySink<CreateNoteReply>) {
        let Some(key) = header(&ctx, "idempotency-key") else {
            ctx.spawn(sink.fail(grpcio::RpcStatus::new(grpcio::RpcStatusCode::INVALID_ARGUMENT)).map(|_| ()));
            return;
        };
        let principal = if let Some(p) = header(&ctx, "x-user-id") {
            p
        } else {
            String::from("guest")
        };
        let device = if let Some(d) = header(&ctx, "x-device") { d } else { String::from("unknown") };
        let replay = self.replay.clone();
        let tenant = self.tenant_id.clone();
        ctx.spawn(
            async move {
                let Ok(scoped) = idem_scope::scoped(&tenant, &principal, "notes.create", &key) else {
                    return sink.fail(grpcio::RpcStatus::new(grpcio::RpcStatusCode::INVALID_ARGUMENT)).await;
                };
                if let Some(prev) = replay.get(scoped.storage_key()).await {
                    return sink.success(prev).await;
                }
                let reply = crate::notes::create(&tenant, &principal, &device, req).await;
                replay.put(scoped.storage_key(), reply.clone()).await;
                sink.success(reply).await
            }
            .map(|_| ()),
        );
    }
}
