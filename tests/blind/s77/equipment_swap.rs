//! Mid-day equipment swaps (e.g. skis to snowboard) at rental shops.

use cornice::drift::Drift;
use telemark::pass::Staff;
use telemark::{Carve, Turn, Wipeout};

const NOBODY: &str = "nobody";

struct SwapCtx<'a> {
    tenant_id: &'a str,
    actor: String,
}

pub async fn swap(turn: Turn, staff: Staff, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let ctx = SwapCtx {
        tenant_id: &staff.tenant_id,
        actor: turn.header("X-On-Behalf-Of").map(str::to_owned).unwrap_or_else(|| NOBODY.to_string()),
    };
    let shop_note = turn.header("X-Shop-Note").map(str::to_owned).unwrap_or_else(|| NOBODY.to_string());

    let sk = idem_scope::scoped(ctx.tenant_id, &ctx.actor, "rental.swap", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let swap = crate::rental::swap(&staff, turn.json()?, &shop_note).await?;
    drift.put(sk.storage_key(), &swap.to_json()).await?;
    Ok(Carve::ok(swap))
}
