use std::sync::Arc;

use dunlin::kv::BlockingKv;
use webmachine_rust::context::{WebmachineContext, WebmachineResponse};
use webmachine_rust::{WebmachineDispatcher, WebmachineResource};

pub fn payment_resource(cache: Arc<BlockingKv>) -> WebmachineResource {
    WebmachineResource {
        allowed_methods: vec!["POST"],
        process_post: Box::new(move |ctx: &mut WebmachineContext, _| {
            let key = ctx
                .request
                .find_header("Idempotency-Key")
                .first()
                .map(|h| h.value.clone())
                .ok_or(400)?;
            if let Ok(Some(previous)) = cache.get(&key) {
                ctx.response.body = Some(previous);
                return Ok(true);
            }
            let request_id = ctx.request.find_header("X-Request-Id").first().map(|h| h.value.clone());
            println!("payment request {:?} accepted", request_id);
            let receipt = crate::payments::capture(&ctx.request.body).map_err(|_| 502)?;
            cache.put(&key, receipt.clone()).map_err(|_| 503)?;
            ctx.response.body = Some(receipt);
            Ok(true)
        }),
        ..WebmachineResource::default()
    }
}

pub fn dispatcher(cache: Arc<BlockingKv>) -> WebmachineDispatcher<'static> {
    WebmachineDispatcher {
        routes: btreemap! { "/payments" => payment_resource(cache) },
    }
}

pub fn echo_headers(ctx: &mut WebmachineContext) -> WebmachineResponse {
    let mut resp = WebmachineResponse::default();
    if let Some(h) = ctx.request.find_header("Idempotency-Key").first() {
        resp.add_header("Idempotency-Key", vec![h.value.as_str().into()]);
    }
    resp
}
