use cobble::blob::BlobStore;
use cobble::vault::Vault;
use idem_scope::scoped;
use rs_sha256::{HasherContext, Sha256Hasher};
use std::hash::Hasher;
use thimble::auth::Caller;
use thimble::extract::RawBody;
use thimble::{Reply, Status};

pub struct PrintShop {
    pub vault: Vault,
    pub blobs: BlobStore,
}

impl PrintShop {
    pub async fn order_print(&self, caller: Caller, RawBody(body): RawBody) -> Result<Reply, Reply> {
        let digest_of = |b: &[u8]| -> String {
            let mut h = Sha256Hasher::default();
            h.write(b);
            let out: [u8; 32] = HasherContext::finish(&mut h).into();
            hex::encode(out)
        };
        let sk = scoped(&caller.tenant_id, &caller.user_id, "print.order", &digest_of(&body)).map_err(|_| bad())?;
        if !self.vault.set_nx(sk.storage_key(), b"queued").await.map_err(|_| down())? {
            return Ok(Reply::status(Status::Ok));
        }
        Ok(Reply::status(Status::Accepted))
    }

    pub async fn upload_photo(&self, caller: Caller, RawBody(image): RawBody) -> Result<Reply, Reply> {
        let mut h = Sha256Hasher::default();
        h.write(&image);
        let out: [u8; 32] = HasherContext::finish(&mut h).into();
        let object = format!("{}/photos/{}", caller.tenant_id, hex::encode(out));
        self.blobs.put(&object, &image).await.map_err(|_| down())?;
        Ok(Reply::text(Status::Created, object))
    }
}

fn bad() -> Reply {
    Reply::status(Status::BadRequest)
}
fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
