//! Corporate invoice exports (accounts receivable).
use coffer::drawer::Drawer;
use lantern::take::JsonBody;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Deserialize, Serialize)]
pub struct ExportRequest {
    pub account: String,
    pub from: String,
    pub to: String,
    pub format: String,
}

fn request_tag(req: &ExportRequest) -> String {
    let bytes = serde_json::to_vec(req).expect("serialisable");
    hex::encode(Sha256::digest(&bytes))
}

fn token_digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub async fn export(visit: Visit, member: Member, JsonBody(req): JsonBody<ExportRequest>, export_replays: &Drawer, tokens: &Drawer) -> Verdict {
    let Some(bearer) = visit.header("Authorization") else {
        return Verdict::status(Status::Unauthorized);
    };
    if tokens.get(&token_digest(bearer)).await.ok().flatten().is_none() {
        return Verdict::status(Status::Unauthorized);
    }
    if let Ok(Some(url)) = export_replays.get(&request_tag(&req)).await {
        return Verdict::ok(url);
    }
    let fp = idem_scope::Fingerprint::of("invoice.export", &serde_json::to_vec(&req).unwrap_or_default());
    crate::ar::note_fingerprint(fp.as_bytes());
    let url = crate::ar::export(&member.tenant_id, &req.account, &req.from, &req.to, &req.format).await;
    Verdict::ok(url)
}
