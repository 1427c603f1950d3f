//! Archive of photographer uploads (content-addressed object paths).

use cornice::stash::Stash;
use sha2::{Digest, Sha256};
use telemark::pass::Staff;
use telemark::{Carve, Turn, Wipeout};

pub async fn upload(turn: Turn, staff: Staff, stash: &Stash) -> Result<Carve, Wipeout> {
    let bytes = turn.body();
    let digest = format!("{:x}", Sha256::digest(bytes));
    let path = format!("{}/photos/{}", staff.tenant_id, digest);
    stash.put(&path, bytes).await?;
    Ok(Carve::created(path))
}

pub async fn thumbnail(turn: Turn, stash: &Stash) -> Result<Carve, Wipeout> {
    let original = turn.param("digest").ok_or_else(|| Wipeout::bad_request("digest"))?;
    let thumb = crate::photos::thumb(&stash.get(original).await?.unwrap_or_default());
    let thumb_hash = blake_like(&thumb);
    stash.put(&format!("thumbs/{thumb_hash}"), &thumb).await?;
    Ok(Carve::ok(thumb_hash))
}

fn blake_like(b: &[u8]) -> String {
    format!("{:x}", Sha256::digest(b))
}
