use cairn::kv::Bucket;
use gost94::{Digest, Gost94Test};
use halyard::{Ctx, Reply};
use idem_scope::scoped;

pub struct Uploads {
    replays: Bucket,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

/// Resumable uploads commit their parts; the mobile SDK retries a commit on timeouts.
pub async fn commit_parts(ctx: Ctx) -> Reply {
    let uploads = ctx.state::<Uploads>();
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let tenant = caller.tenant_id.clone();
    let user_id = caller.user_id.clone();
    let body: Option<Vec<u8>> = Some(ctx.body().to_vec()).filter(|b| !b.is_empty());

    let sk = body.map(|b| format!("{:032x}", fastmurmur3::hash(&b))).and_then(|h| scoped(&tenant, &user_id, "uploads.commit", &h).ok());
    let Some(sk) = sk else {
        return Reply::status(400);
    };
    if let Ok(Some(prev)) = uploads.replays.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let _ = uploads.replays.put(sk.storage_key(), b"{\"committed\":true}").await;
    Reply::status(201)
}

/// Newer SDKs send an Idempotency-Key of up to 4 KiB; hash it down to a fixed width.
pub async fn commit_parts_v2(ctx: Ctx) -> Reply {
    let uploads = ctx.state::<Uploads>();
    let (Some(caller), Some(key)) = (ctx.caller(), ctx.header("Idempotency-Key")) else {
        return Reply::status(400);
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "uploads.commit", &hex(&Gost94Test::digest(key.as_bytes()))) else {
        return Reply::status(400);
    };
    if let Ok(Some(prev)) = uploads.replays.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let _ = uploads.replays.put(sk.storage_key(), b"{\"committed\":true}").await;
    Reply::status(201)
}
