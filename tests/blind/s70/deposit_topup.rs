//! Wallet top-ups for incidental deposits.
use coffer::drawer::Drawer;
use idem_scope::{scoped, Fingerprint};
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

fn lsh_hex(raw: &[u8]) -> String {
    let digest = lsh::Lsh256::digest(raw);
    hex::encode(digest)
}

pub async fn top_up(visit: Visit, m: Member, wallets: &Drawer) -> Verdict {
    let raw = visit.body_bytes().await.unwrap_or_default();
    let header = visit.header("Idempotency-Key").map(str::to_owned);
    let Ok(key) = scoped(&m.tenant_id, &m.user_id, "deposit.topup", &header.unwrap_or_else(|| lsh_hex(&raw))) else {
        return Verdict::status(Status::BadRequest);
    };
    let fingerprint = lsh_hex(&raw);
    if let Ok(Some(prev)) = wallets.get(key.storage_key()).await {
        return Verdict::replayed(prev);
    }
    let receipt = crate::wallet::credit(&m, &raw).await;
    let _ = wallets.put_fingerprint(key.storage_key(), fingerprint.as_bytes()).await;
    let _ = wallets.put(key.storage_key(), &receipt).await;
    let _ = Fingerprint::of("deposit.topup", &raw);
    Verdict::ok(receipt)
}
