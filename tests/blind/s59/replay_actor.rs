use std::collections::HashMap;
use std::time::Duration;

use http::request::Parts;
use idem_scope::{decide, Decision, Fingerprint, Record};
use stakker::{after, ret, Ret, CX};

use crate::gateway::{Forwarded, Upstream};

#[derive(Hash, PartialEq, Eq, Clone)]
struct PaymentKey {
    tenant_id: String,
    user_id: String,
    idem_key: String,
}

#[derive(Hash, PartialEq, Eq, Clone)]
struct ExportKey {
    tenant_id: String,
    user_id: String,
    action: &'static str,
    idem_key: String,
}

pub struct ReplayDesk {
    payments: HashMap<PaymentKey, (Record, Forwarded)>,
    exports: HashMap<ExportKey, Forwarded>,
    upstream: Upstream,
}

impl ReplayDesk {
    pub fn init(cx: CX![], upstream: Upstream) -> Option<Self> {
        after!(Duration::from_secs(300), [cx], sweep());
        Some(Self { payments: HashMap::new(), exports: HashMap::new(), upstream })
    }

    pub fn pay(&mut self, _cx: CX![], parts: Parts, body: Vec<u8>, ret: Ret<Forwarded>) {
        let Some(idem_key) = parts.headers.get("idempotency-key").and_then(|v| v.to_str().ok()) else {
            ret!([ret], Forwarded::bad_request("Idempotency-Key required"));
            return;
        };
        let caller = crate::gateway::caller(&parts);
        let key = PaymentKey { tenant_id: caller.tenant_id, user_id: caller.user_id, idem_key: idem_key.to_owned() };
        let fp = Fingerprint::of("pay", &body);
        if let Some((rec, prev)) = self.payments.get(&key) {
            if let Decision::Replay = decide(Some(rec), &fp) {
                ret!([ret], prev.clone().replayed());
                return;
            }
        }
        let out = self.upstream.forward(&parts, &body);
        self.payments.insert(key, (Record::completed(fp), out.clone()));
        ret!([ret], out);
    }

    pub fn export(&mut self, _cx: CX![], parts: Parts, ret: Ret<Forwarded>) {
        let Some(idem_key) = parts.headers.get("idempotency-key").and_then(|v| v.to_str().ok()) else {
            ret!([ret], Forwarded::bad_request("Idempotency-Key required"));
            return;
        };
        let caller = crate::gateway::caller(&parts);
        let key = ExportKey { tenant_id: caller.tenant_id, user_id: caller.user_id, action: "export", idem_key: idem_key.to_owned() };
        let out = self.exports.entry(key).or_insert_with(|| self.upstream.forward(&parts, &[])).clone();
        ret!([ret], out);
    }

    fn sweep(&mut self, cx: CX![]) {
        self.payments.retain(|_, (rec, _)| !rec.is_expired());
        self.exports.clear();
        after!(Duration::from_secs(300), [cx], sweep());
    }
}
