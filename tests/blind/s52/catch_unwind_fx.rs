use std::panic::AssertUnwindSafe;

use futures_util::FutureExt;
use idem_scope::{scoped, Fingerprint};

use crate::fx::{Conversion, FxDesk};
use crate::store::IdemStore;

pub struct ConvertCtx<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub idempotency_key: &'a str,
    pub body: &'a [u8],
}

pub async fn convert(store: &IdemStore, desk: &FxDesk, ctx: ConvertCtx<'_>) -> Result<Conversion, crate::Error> {
    let key = scoped(ctx.tenant_id, ctx.user_id, "fx.convert", ctx.idempotency_key)?;
    let fp = Fingerprint::of("fx.convert", ctx.body);
    store.claim(&key, &fp).await?;

    let outcome = AssertUnwindSafe(async {
        let order = serde_json::from_slice(ctx.body)?;
        desk.convert(ctx.tenant_id, order).await
    })
    .catch_unwind()
    .await;

    match outcome {
        Ok(Ok(conversion)) => {
            store.complete(&key, &conversion).await?;
            Ok(conversion)
        }
        Ok(Err(e)) => {
            store.release(&key).await?;
            Err(e)
        }
        Err(panic) => {
            let _ = store.release(&key).await;
            std::panic::resume_unwind(panic)
        }
    }
}
