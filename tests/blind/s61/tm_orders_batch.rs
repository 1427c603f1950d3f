use std::time::Duration;

use idem_scope::Fingerprint;
use larder::pantry::Pantry;
use serde::Deserialize;
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

const UNIT_SEP: &str = "\u{1f}";

#[derive(Deserialize)]
struct BatchLine {
    sku: String,
    qty: u32,
}

#[derive(Deserialize)]
struct Batch {
    lines: Vec<BatchLine>,
}

pub async fn submit_batch(req: Req, caller: Caller, pantry: &Pantry) -> Result<Reply, Reply> {
    let idem = req
        .header("idempotency-key")
        .ok_or_else(|| Reply::text(400, "missing idempotency key"))?
        .to_owned();
    let batch: Batch = req.json()?;
    let fingerprint = Fingerprint::of("orders.batch", req.body());

    let line_keys: Vec<String> = batch
        .lines
        .iter()
        .map(|line| [caller.tenant_id.as_str(), caller.user_id.as_str(), "orders.batch", idem.as_str(), line.sku.as_str()].join(UNIT_SEP))
        .collect();

    let mut accepted = 0usize;
    for (k, line) in line_keys.iter().zip(&batch.lines) {
        pantry.claim(k, &fingerprint, Duration::from_secs(120)).await.map_err(Reply::internal)?;
        match reserve_stock(&line.sku, line.qty).await {
            Ok(()) => {
                pantry.complete(k, b"{\"status\":\"accepted\"}").await.map_err(Reply::internal)?;
                accepted += 1;
            }
            Err(e) => {
                let _ = pantry.release(k).await;
                return Err(Reply::text(409, e));
            }
        }
    }
    Ok(Reply::json(202, &serde_json::json!({ "accepted": accepted })))
}

async fn reserve_stock(sku: &str, qty: u32) -> Result<(), String> {
    if qty == 0 {
        return Err(format!("sku {sku}: quantity must be positive"));
    }
    Ok(())
}
