//! Berth docking aid: the laser docking system reports "all fast" and
//! mooring-line tension events. Mooring masters can also confirm "all fast"
//! from the quay app with a client key; both land in one reply store.

use ballast::hold::Hold;
use futures::StreamExt;
use hawser::extract::Shared;
use hawser::pass::Staff;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, scoped_server, Namespace, ScopeError, ScopedKey};
use tokio::sync::watch;

pub struct DockingEvent {
    pub event_id: String,
    pub org_id: String,
    pub berth: String,
    pub kind: DockingKind,
}

pub enum DockingKind {
    AllFast,
    LineTension { line: u8, kn: f32 },
}

pub struct Docking {
    pub replies: Hold,
    pub berths: berth_plan::Berths,
}

fn slot_for(ns: Namespace, org_id: &str, principal: &str, route: &str, id: &str) -> Result<ScopedKey, ScopeError> {
    match ns {
        Namespace::Server => scoped_server(org_id, principal, route, id),
        Namespace::Client => scoped(org_id, principal, route, id),
    }
}

pub async fn confirm_all_fast(d: Shared<Docking>, staff: Staff, call: Call) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let berth = call.param("berth").ok_or_else(|| Snag::bad_request("berth"))?;
    let key = slot_for(Namespace::Client, &staff.org_id, &staff.sub, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = d.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let stamped = d.berths.all_fast(berth, &staff.sub).await?;
    let answer = Answer::json(Status::OK, &stamped);
    d.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn docking_loop(
    d: &Docking,
    mut events: impl futures::Stream<Item = DockingEvent> + Unpin,
    mut shutdown: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    loop {
        tokio::select! {
            _ = shutdown.changed() => break,
            Some(ev) = events.next() => match ev.kind {
                DockingKind::AllFast => {
                    let key = scoped(&ev.org_id, "docking-aid", "/v1/berths/all-fast", &ev.event_id)?;
                    if !d.replies.exists(key.storage_key()).await? {
                        let stamped = d.berths.all_fast(&ev.berth, "docking-aid").await?;
                        d.replies.put(key.storage_key(), &serde_json::to_vec(&stamped)?).await?;
                    }
                }
                DockingKind::LineTension { line, kn } => {
                    let key = slot_for(Namespace::Server, &ev.org_id, "docking-aid", "/v1/berths/tension", &ev.event_id)?;
                    if !d.replies.exists(key.storage_key()).await? {
                        d.berths.record_tension(&ev.berth, line, kn).await?;
                        d.replies.put(key.storage_key(), b"recorded").await?;
                    }
                }
            },
        }
    }
    Ok(())
}
