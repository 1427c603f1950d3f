use std::sync::{Arc, OnceLock};
use std::time::Duration;

use idem_scope::scoped;
use neon::prelude::*;
use neon::types::buffer::TypedArray;
use quarry::kv::Vault;
use tokio::runtime::Runtime;

const LEASE: Duration = Duration::from_secs(120);

struct AddonState {
    vault: Arc<Vault>,
    broker: broker::Client,
}

static STATE: OnceLock<Arc<AddonState>> = OnceLock::new();
static RUNTIME: OnceLock<Runtime> = OnceLock::new();

fn runtime() -> &'static Runtime {
    RUNTIME.get_or_init(|| Runtime::new().expect("tokio runtime"))
}

fn submit_order(mut cx: FunctionContext) -> JsResult<JsPromise> {
    let tenant = cx.argument::<JsString>(0)?.value(&mut cx);
    let user_id = cx.argument::<JsString>(1)?.value(&mut cx);
    let idempotency_key = cx.argument::<JsString>(2)?.value(&mut cx);
    let payload = cx.argument::<JsBuffer>(3)?.as_slice(&cx).to_vec();
    let state = STATE.get().expect("init() not called").clone();
    let channel = cx.channel();
    let (deferred, promise) = cx.promise();

    runtime().spawn(async move {
        let sk = scoped(&tenant, &user_id, "orders.submit", &idempotency_key).expect("validated by the JS layer");
        let claimed = state.vault.claim(sk.storage_key(), LEASE).await.unwrap_or(false);
        if !claimed {
            deferred.settle_with(&channel, move |mut cx| cx.throw_error::<_, Handle<JsString>>(format!("order with key {} is still in progress", idempotency_key)));
            return;
        }
        let order = state.broker.submit(&payload).await.expect("broker accepted order");
        let _ = state.vault.complete(sk.storage_key(), order.to_bytes()).await;
        deferred.settle_with(&channel, move |mut cx| Ok(cx.string(order.id)));
    });
    Ok(promise)
}

fn cancel_order(mut cx: FunctionContext) -> JsResult<JsPromise> {
    let tenant = cx.argument::<JsString>(0)?.value(&mut cx);
    let user_id = cx.argument::<JsString>(1)?.value(&mut cx);
    let idempotency_key = cx.argument::<JsString>(2)?.value(&mut cx);
    let order_id = cx.argument::<JsString>(3)?.value(&mut cx);
    let state = STATE.get().expect("init() not called").clone();
    let channel = cx.channel();
    let (deferred, promise) = cx.promise();

    runtime().spawn(async move {
        let Ok(sk) = scoped(&tenant, &user_id, "orders.cancel", &idempotency_key) else {
            deferred.settle_with(&channel, |mut cx| cx.throw_error::<_, Handle<JsString>>("invalid scope"));
            return;
        };
        match state.vault.claim(sk.storage_key(), LEASE).await {
            Ok(true) => {}
            _ => {
                deferred.settle_with(&channel, |mut cx| cx.throw_error::<_, Handle<JsString>>("in progress"));
                return;
            }
        }
        match state.broker.cancel(&order_id).await {
            Ok(ack) => {
                let _ = state.vault.complete(sk.storage_key(), ack.to_bytes()).await;
                deferred.settle_with(&channel, move |mut cx| Ok(cx.string(ack.status)));
            }
            Err(err) => {
                let _ = state.vault.release(sk.storage_key()).await;
                deferred.settle_with(&channel, move |mut cx| cx.throw_error::<_, Handle<JsString>>(err.to_string()));
            }
        }
    });
    Ok(promise)
}

#[neon::main]
fn main(mut cx: ModuleContext) -> NeonResult<()> {
    cx.export_function("submitOrder", submit_order)?;
    cx.export_function("cancelOrder", cancel_order)?;
    Ok(())
}
