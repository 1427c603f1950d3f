use dunlin::kv::Kv;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct Payouts {
    pub kv: Kv,
    pub audit: crate::audit::Sink,
}

fn payout_slot(caller: &Caller, route: &str, client_key: &str) -> String {
    [caller.tenant_id.as_str(), caller.user_id.as_str(), route, client_key].join("\u{1f}")
}

impl Payouts {
    pub async fn create(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(client_key) = ctx.header("X-Idempotency-Key").map(str::to_owned) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let slot = payout_slot(&caller, "payout.create", &client_key);
        if let Ok(Some(done)) = self.kv.get(&slot).await {
            return Reply::bytes(Status::OK, done);
        }
        let payout = crate::payouts::send(&caller, ctx.body()).await;
        let line = [caller.tenant_id.as_str(), "payout", payout.id.as_str(), client_key.as_str()].join(" ");
        self.audit.write(line);
        self.kv.put(&slot, payout.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &payout)
    }
}

/// Page sizes accepted by list endpoints of this module.
pub(crate) fn clamp_page_size(requested: Option<u32>) -> u32 {
    match requested {
        Some(0) => 1,
        Some(n) if n > 200 => 200,
        Some(n) => n,
        None => 50,
    }
}

#[cfg(test)]
mod paging_tests {
    use super::clamp_page_size;

    #[test]
    fn page_size_bounds() {
        assert_eq!(clamp_page_size(Some(0)), 1);
        assert_eq!(clamp_page_size(Some(500)), 200);
    }

    #[test]
    fn page_size_default() {
        assert_eq!(clamp_page_size(None), 50);
        assert_eq!(clamp_page_size(Some(20)), 20);
    }
}
