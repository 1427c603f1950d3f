use brindle::auth::Caller;
use brindle::multipart::Multipart;
use brindle::{Ctx, Reply, State, Status};
use idem_scope::{scoped, Problem};
use sluice::blob::BlobStore;
use sluice::kv::Bucket;

#[derive(Clone)]
pub struct AttachmentDeps {
    pub blobs: BlobStore,
    pub replays: Bucket,
}

pub async fn attach(State(deps): State<AttachmentDeps>, ctx: Ctx, caller: Caller, ticket_id: String, mut form: Multipart) -> Reply {
    let Some(header) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let mut client_key = header.to_owned();
    client_key.retain(|c| c != '/');
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "tickets.attach", &client_key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = deps.replays.get::<Vec<String>>(sk.storage_key()).await {
        return Reply::json(Status::OK, &prev).header("Idempotent-Replayed", "true");
    }

    let mut stored = Vec::new();
    while let Ok(Some(part)) = form.next_field().await {
        let file_name = part.file_name().unwrap_or("attachment.bin").to_owned();
        let safe_name = file_name.replace('/', "_");
        let object = format!("tickets/{}/{}/{}", caller.tenant_id, ticket_id, safe_name);
        let bytes = match part.bytes().await {
            Ok(b) => b,
            Err(e) => return Reply::status(Status::BAD_REQUEST).text(e.to_string()),
        };
        if let Err(e) = deps.blobs.put(&object, bytes).await {
            return Reply::status(Status::BAD_GATEWAY).text(e.to_string());
        }
        stored.push(object);
    }
    let _ = deps.replays.put(sk.storage_key(), &stored).await;
    Reply::json(Status::CREATED, &stored)
}
