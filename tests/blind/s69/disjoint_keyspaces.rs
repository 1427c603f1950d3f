//! Tariff change notifications: customer-requested re-sends and the
//! notifier's own redeliveries share one bin, in disjoint keyspaces.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub struct Notices {
    pub sent: Bin,
}

impl Notices {
    pub async fn resend_notice(&self, cx: Cx, who: Identity) -> Reply {
        let Some(key) = cx.header("Idempotency-Key") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/notices/resend", key) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let slot = format!("req/{}", sk.storage_key());
        if self.sent.exists(&slot).await.unwrap_or(false) {
            return Reply::status(Code::OK);
        }
        crate::notify::tariff_notice(&who.org_id, &who.user_id).await;
        let _ = self.sent.put(&slot, b"1").await;
        Reply::status(Code::ACCEPTED)
    }

    pub async fn redeliver(&self, org_id: &str, user_id: &str, delivery_id: &str) {
        let Ok(sk) = scoped(org_id, user_id, "/v1/notices/resend", delivery_id) else {
            return;
        };
        let slot = format!("evt/{}", sk.storage_key());
        if self.sent.exists(&slot).await.unwrap_or(false) {
            return;
        }
        crate::notify::tariff_notice(org_id, user_id).await;
        let _ = self.sent.put(&slot, b"1").await;
    }
}
