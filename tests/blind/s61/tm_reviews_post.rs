use std::time::Duration;

use hex_fmt::HexFmt;
use larder::keys::KeyBuilder;
use larder::pantry::Pantry;
use serde::Deserialize;
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

#[derive(Deserialize)]
struct Review {
    product_id: String,
    stars: u8,
    text: String,
}

pub struct Reviews {
    posted: Pantry,
    moderation: larder::queue::Outbox,
}

impl Reviews {
    /// POST /v1/reviews: one review per identical submission.
    pub async fn post(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let review: Review = req.json()?;
        let crc = crc32_v2::crc32(0, req.body());
        let key = KeyBuilder::new().tenant(&caller.tenant_id).principal(&caller.user_id).route("reviews.post").key(&HexFmt(crc.to_be_bytes()).to_string()).build().map_err(Reply::internal)?;

        if self.posted.exists(key.storage_key()).await.map_err(Reply::internal)? {
            return Ok(Reply::status(200));
        }
        let moderation_tag = format!("review:{}:{}", review.product_id, caller.user_id);
        self.moderation.enqueue(&moderation_tag, review.text.as_bytes()).await.map_err(Reply::internal)?;
        self.posted
            .put(key.storage_key(), &[review.stars], Duration::from_secs(30 * 86_400))
            .await
            .map_err(Reply::internal)?;
        Ok(Reply::status(201))
    }
}
