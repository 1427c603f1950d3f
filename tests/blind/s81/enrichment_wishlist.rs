//! Enrichment wishlist: visitors buy puzzle feeders and toys for the
//! orangutans and otters straight from the keepers' list.

use enclosure::extract::Shared;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;
use sha2::{Digest, Sha256, Sha512};

use crate::extractors::Caller;

#[derive(Deserialize)]
pub struct WishPurchase {
    item_sku: String,
    quantity: u8,
    message_to_keepers: Option<String>,
}

pub struct Wishlist {
    pub replays: Tank,
    pub store: crate::wishlist::Catalogue,
}

pub async fn purchase(visit: Visit, Shared(list): Shared<Wishlist>, caller: Caller) -> Result<Reply, Fault> {
    let (wish, slot) = async {
        let raw = visit.bytes().await?;
        let wish: WishPurchase = serde_json::from_slice(&raw).map_err(Fault::bad_request)?;
        let hasher = Sha512::new_with_prefix(&raw);
        let slot = scoped(&caller.org_id, &caller.user_id, "wishlist.purchase", &format!("{:x}", hasher.finalize())).map_err(Fault::bad_request)?;
        Ok::<_, Fault>((wish, slot))
    }
    .await?;

    if let Some(prev) = list.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let order = list.store.buy(&caller.org_id, &wish.item_sku, wish.quantity, wish.message_to_keepers.as_deref()).await?;
    let body = serde_json::to_vec(&order).map_err(Fault::internal)?;
    list.replays.put(slot.storage_key(), &body).await?;
    let etag = format!("{:.16x}", Sha256::digest(&body));
    Ok(Reply::bytes(Status::CREATED, body).with_header("ETag", &etag))
}
