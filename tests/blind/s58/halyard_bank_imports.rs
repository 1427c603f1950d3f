use cairn::kv::Bucket;
use gost94::{Digest, Gost94CryptoPro};
use halyard::{Ctx, Reply};
use idem_scope::{scoped, Fingerprint, Problem};

pub struct Imports {
    replies: Bucket,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

/// Statement files are uploaded by the bank's SFTP bridge, which cannot set headers.
pub async fn import_statement(ctx: Ctx) -> Reply {
    let imports = ctx.state::<Imports>();
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let raw = ctx.body();
    if raw.is_empty() {
        return Reply::status(400);
    }
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "statements.import", &hex(&Gost94CryptoPro::digest(raw))) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = imports.replies.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let lines = raw.split(|b| *b == b'\n').count();
    let body = format!(r#"{{"lines":{}}}"#, lines).into_bytes();
    let _ = imports.replies.put(sk.storage_key(), &body).await;
    Reply::bytes(201, body)
}

/// API clients send an Idempotency-Key; the body only feeds the fingerprint.
pub async fn import_statement_api(ctx: Ctx) -> Reply {
    let imports = ctx.state::<Imports>();
    let (Some(caller), Some(key)) = (ctx.caller(), ctx.header("Idempotency-Key")) else {
        return Reply::status(400);
    };
    let fingerprint = Fingerprint::of("statements.import", ctx.body());
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "statements.import", key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = imports.replies.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let stored = [fingerprint.as_bytes().as_slice(), b"accepted"].concat();
    let _ = imports.replies.put(sk.storage_key(), &stored).await;
    Reply::status(202)
}
