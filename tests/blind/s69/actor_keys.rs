//! Who is acting: drivers, fleet managers, or unauthenticated callers of
//! the public status API.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::MaybeIdentity;
use trellis::{Code, Cx, Reply};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    Driver(String),
    FleetManager(String),
    Unknown,
}

impl Actor {
    pub fn as_str(&self) -> &str {
        match self {
            Actor::Driver(id) | Actor::FleetManager(id) => id,
            Actor::Unknown => "unknown",
        }
    }
}

fn actor_of(who: &MaybeIdentity) -> Option<Actor> {
    who.0.as_ref().map(|i| if i.is_fleet_manager { Actor::FleetManager(i.user_id.clone()) } else { Actor::Driver(i.user_id.clone()) })
}

pub async fn report_fault(cx: Cx, who: MaybeIdentity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let actor = actor_of(&who).unwrap_or(Actor::Unknown);
    let org_id = cx.param("operator").unwrap_or_default();
    let Ok(sk) = scoped(&org_id, actor.as_str(), "/v1/faults", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if bin.exists(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    crate::faults::open(&org_id, actor.as_str(), cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), b"open").await;
    crate::metrics::fault_reported(actor_of(&who).unwrap_or(Actor::Unknown).as_str());
    Reply::status(Code::CREATED)
}
