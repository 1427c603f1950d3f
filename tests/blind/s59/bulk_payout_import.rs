use base64ct::{Base64UrlUnpadded, Encoding};
use brindle::auth::Caller;
use brindle::{Ctx, RawBody, Reply, Status};
use idem_scope::{scoped, Fingerprint, Problem, Record};
use nettle::hash::{Hash, Sha256};
use sluice::kv::Bucket;

use crate::payouts::{parse_payout_line, queue_payout};

fn sha256(bytes: &[u8]) -> [u8; 32] {
    let mut h = Sha256::default();
    h.update(bytes);
    let mut out = [0u8; 32];
    h.digest(&mut out);
    out
}

pub struct BulkImport {
    lines: Bucket,
    batches: Bucket,
}

impl BulkImport {
    pub async fn upload(&self, ctx: Ctx, caller: Caller, RawBody(body): RawBody) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let batch_key = match scoped(&caller.tenant_id, &caller.user_id, "payouts.bulk", client_key) {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let fp = Fingerprint::of("payouts.bulk", &body);
        if let Ok(Some(rec)) = self.batches.get::<Record>(batch_key.storage_key()).await {
            if rec.fingerprint.as_bytes() != fp.as_bytes() {
                return Reply::problem(Problem::mismatch(client_key));
            }
            return Reply::status(Status::OK).header("Idempotent-Replayed", "true");
        }

        let mut queued = 0usize;
        for line in body.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            // a line that was already queued by an earlier upload is skipped
            let line_key = (caller.tenant_id.as_str(), caller.user_id.as_str(), "payouts.line", Base64UrlUnpadded::encode_string(&sha256(line)));
            if self.lines.exists(&line_key).await.unwrap_or(false) {
                continue;
            }
            let payout = match parse_payout_line(line) {
                Ok(p) => p,
                Err(e) => return Reply::status(Status::UNPROCESSABLE_ENTITY).text(e.to_string()),
            };
            queue_payout(&caller, &payout).await;
            let _ = self.lines.put(&line_key, &()).await;
            queued += 1;
        }

        let _ = self.batches.put(batch_key.storage_key(), &Record::completed(fp)).await;
        Reply::json(Status::ACCEPTED, &serde_json::json!({ "queued": queued }))
    }
}
