//! The reference implementation new handlers are migrated to: scoped keys,
//! fingerprints beside the key, decide(), and a guard that releases.

use std::time::Duration;

use garner::bin::Bin;
use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, Problem, Record};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn execute<F, Fut>(cx: &Cx, who: &Identity, route: &str, bin: Bin, run: F) -> Reply
where
    F: FnOnce(Vec<u8>) -> Fut,
    Fut: std::future::Future<Output = Result<Vec<u8>, Code>>,
{
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sk = match scoped(&who.org_id, &who.user_id, route, key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    let raw = cx.body_bytes().to_vec();
    let fingerprint = Fingerprint::of(route, &raw);
    let existing: Option<Record> = bin.load_record(sk.storage_key()).await.ok().flatten();
    match decide(existing.as_ref(), &fingerprint) {
        Decision::Replay => return Reply::bytes(Code::OK, bin.get(sk.storage_key()).await.ok().flatten().unwrap_or_default()),
        Decision::InProgress => return Reply::problem(Problem::in_progress(key)),
        Decision::Mismatch => return Reply::problem(Problem::mismatch(key)),
        Decision::Proceed => {}
    }
    if !bin.claim(sk.storage_key(), Duration::from_secs(300)).await.unwrap_or(false) {
        return Reply::problem(Problem::in_progress(key));
    }
    let storage_key = sk.storage_key().to_owned();
    let guard = ClaimGuard::new({
        let (bin, k) = (bin.clone(), storage_key.clone());
        move || {
            tokio::spawn(async move {
                let _ = bin.release(&k).await;
            });
        }
    });
    let out = match run(raw).await {
        Ok(out) => out,
        Err(code) => return Reply::status(code),
    };
    let _ = bin.put_fingerprint(&storage_key, fingerprint.as_bytes()).await;
    let _ = bin.complete(&storage_key, &out).await;
    guard.complete();
    Reply::bytes(Code::OK, out)
}
