use std::collections::HashMap;

use idem_scope::Namespace;
use parking_lot::RwLock;

#[derive(Hash, PartialEq, Eq, Clone)]
pub struct RecordKey {
    pub ns: Namespace,
    pub tenant_id: String,
    pub principal_id: String,
    pub route: String,
    pub key: String,
}

pub struct SubscriptionHub {
    records: RwLock<HashMap<RecordKey, String>>,
    subs: SubscriptionService,
}

pub struct ApiCall<'a> {
    pub headers: &'a [(&'a str, &'a str)],
    pub tenant_id: &'a str,
    pub principal_id: &'a str,
}

pub struct RenewalEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub principal_id: String,
}

impl SubscriptionHub {
    pub fn upgrade(&self, call: &ApiCall<'_>, plan: &str) -> Option<String> {
        let client_key = call.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.to_string())?;
        let rk = RecordKey { ns: Namespace::Client, tenant_id: call.tenant_id.to_owned(), principal_id: call.principal_id.to_owned(), route: "subscriptions.upgrade".into(), key: client_key };
        if let Some(v) = self.records.read().get(&rk) {
            return Some(v.clone());
        }
        let out = self.subs.upgrade(call.tenant_id, plan);
        self.records.write().insert(rk, out.clone());
        Some(out)
    }

    pub fn on_renewal(&self, evt: &RenewalEvent) {
        let rk = RecordKey { ns: Namespace::Client, tenant_id: evt.tenant_id.clone(), principal_id: evt.principal_id.clone(), route: "subscriptions.upgrade".into(), key: evt.event_id.clone() };
        if self.records.read().contains_key(&rk) {
            return;
        }
        let out = self.subs.renew(&evt.tenant_id);
        self.records.write().insert(rk, out);
    }

    pub fn on_renewal_retry(&self, evt: &RenewalEvent) {
        let rk = RecordKey { ns: Namespace::Server, tenant_id: evt.tenant_id.clone(), principal_id: evt.principal_id.clone(), route: "subscriptions.upgrade".into(), key: evt.event_id.clone() };
        if self.records.read().contains_key(&rk) {
            return;
        }
        let out = self.subs.renew(&evt.tenant_id);
        self.records.write().insert(rk, out);
    }
}
