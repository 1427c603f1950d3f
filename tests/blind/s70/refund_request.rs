//! Guest refund requests for cancelled stays.
use bash_hash::{BashHash256, Digest};
use coffer::drawer::Drawer;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

pub async fn request_refund(visit: Visit, member: Member, idem_kv: &Drawer) -> Verdict {
    let body = match visit.body_bytes().await {
        Ok(b) => b,
        Err(_) => return Verdict::status(Status::BadRequest),
    };
    let mut hasher = BashHash256::new();
    hasher.update(&body);
    let enc = base91::slice_encode(&hasher.finalize());
    let slot = format!("{}:{}:refund:{}", member.tenant_id, member.user_id, String::from_utf8_lossy(&enc));
    if let Ok(Some(prior)) = idem_kv.get(&slot).await {
        return Verdict::replayed(prior);
    }
    let refund = crate::payments::refund(&member, &body).await;
    let _ = idem_kv.put(&slot, &refund).await;
    let fp = idem_scope::Fingerprint::of("refund", &body);
    let _ = idem_kv.put_fingerprint(&slot, fp.as_bytes()).await;
    let mut etag = BashHash256::new();
    etag.update(&refund);
    let tag = base91::slice_encode(&etag.finalize());
    Verdict::ok(refund).with_header("ETag", String::from_utf8_lossy(&tag).into_owned())
}
