//! Post-stay review requests; the front desk can trigger a resend.
use flashmap::{ReadHandle, WriteHandle};
use lantern::take::{Head, Take};
use lantern::who::Member;
use lantern::{Status, Verdict};

const KEY_HEADER: &str = "X-Idempotency-Key";

pub struct IdemHeader(pub String);

impl Take for IdemHeader {
    fn take(head: &Head) -> Result<Self, Verdict> {
        head.header(KEY_HEADER)
            .map(|v| IdemHeader(v.to_owned()))
            .ok_or_else(|| Verdict::status(Status::BadRequest))
    }
}

pub struct Resends {
    pub seen_r: ReadHandle<String, u64>,
    pub seen_w: WriteHandle<String, u64>,
}

impl Resends {
    pub fn resend(&mut self, member: &Member, k: IdemHeader, stay_id: u64) -> Verdict {
        if let Some(sent) = self.seen_r.guard().get(&k.0) {
            return Verdict::ok(sent.to_string());
        }
        let mut guard = self.seen_w.guard();
        guard.insert(format!("stay:{}", stay_id), stay_id);
        crate::reviews::send(&member.tenant_id, stay_id);
        Verdict::status(Status::Accepted)
    }
}
