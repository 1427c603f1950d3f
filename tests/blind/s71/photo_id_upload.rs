//! Photo upload for concession cards (student and senior cards carry a
//! photo). Phones on slow networks retry the upload.

use hopper::bay::Bay;
use hopper::shelf::Shelf;
use idem_scope::scoped;
use sha2::{Digest, Sha512};
use wharf::badge::Rider;
use wharf::pick::Raw;
use wharf::{Answer, Code, Fault};

pub struct PhotoIds {
    replays: Bay,
    shelf: Shelf,
    cards: crate::cards::CardService,
}

impl PhotoIds {
    pub async fn upload(&self, rider: Rider, Raw(photo): Raw) -> Result<Answer, Fault> {
        if photo.len() > 4 * 1024 * 1024 {
            return Ok(Answer::status(Code::PayloadTooLarge));
        }
        let mut hasher = Sha512::new();
        for chunk in photo.chunks(64 * 1024) {
            hasher.update(chunk);
        }
        let digest = hasher.finalize();
        let key = scoped(&rider.tenant_id, &rider.user_id, "concessions.photo", &format!("{digest:x}"))?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }

        let owner_dir = format!("{:x}", Sha512::digest(rider.user_id.as_bytes()));
        let object = self.shelf.put(&rider.tenant_id, &format!("photos/{owner_dir}/current.jpg"), photo.to_vec()).await?;
        self.cards.attach_photo(&rider.tenant_id, &rider.user_id, &object.url).await?;

        let body = wharf::codec::to_vec(&wharf::json!({ "photo": object.url }))?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
