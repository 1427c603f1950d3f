//! Merging duplicate guest profiles submitted by the front desk.
use bash_hash::{BashHash256, Digest};
use coffer::drawer::Drawer;
use lantern::who::Operator;
use lantern::{Verdict, Visit};

pub struct MergeDesk {
    pub dedup: Drawer,
}

impl MergeDesk {
    pub async fn merge(&self, visit: Visit, op: Operator) -> Verdict {
        let raw = visit.body_bytes().await.unwrap_or_default();
        let tag = |b: &[u8]| BashHash256::digest(b);
        if let Ok(Some(done)) = self.dedup.get(&base91::slice_encode(&tag(&raw))).await {
            return Verdict::replayed(done);
        }
        let merged = crate::profiles::merge(&op, &raw).await;
        let profile_tag = base91::slice_encode(&tag(op.user_id.as_bytes()));
        crate::audit::note_bytes(&profile_tag);
        Verdict::ok(merged)
    }
}
