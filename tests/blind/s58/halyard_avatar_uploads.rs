use cairn::blob::BlobStore;
use halyard::{Ctx, Reply};
use kupyna::{Digest, Kupyna256};

const PART_SIZE: usize = 5 * 1024 * 1024;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

pub async fn upload_avatar(ctx: Ctx) -> Result<Reply, halyard::Error> {
    let blobs = ctx.state::<BlobStore>();
    let caller = ctx.caller().ok_or(halyard::Error::Unauthorized)?;
    let raw = ctx.body();
    if raw.len() > 20 * PART_SIZE {
        return Ok(Reply::status(413));
    }

    // Identical images are stored once per tenant.
    let object_path = format!("avatars/{}/{}.png", caller.tenant_id, hex(&Kupyna256::digest(raw)));
    if blobs.exists(&object_path).await.map_err(|_| halyard::Error::Internal)? {
        return Ok(Reply::json(200, &object_path));
    }

    let upload_id = blobs.begin(&object_path).await.map_err(|_| halyard::Error::Internal)?;
    for (n, part) in raw.chunks(PART_SIZE).enumerate() {
        blobs
            .put_part(&upload_id, n as u32 + 1, part)
            .await
            .map_err(|_| halyard::Error::Internal)?;
    }
    blobs.complete(&upload_id).await.map_err(|_| halyard::Error::Internal)?;

    let profile_key = format!("profile:{}:{}", caller.tenant_id, caller.user_id);
    blobs.put_meta(&profile_key, "avatar", &object_path).await.map_err(|_| halyard::Error::Internal)?;
    Ok(Reply::json(201, &object_path))
}

pub async fn delete_avatar(ctx: Ctx) -> Result<Reply, halyard::Error> {
    let blobs = ctx.state::<BlobStore>();
    let caller = ctx.caller().ok_or(halyard::Error::Unauthorized)?;
    let profile_key = format!("profile:{}:{}", caller.tenant_id, caller.user_id);
    blobs.delete_meta(&profile_key, "avatar").await.map_err(|_| halyard::Error::Internal)?;
    Ok(Reply::status(204))
}
