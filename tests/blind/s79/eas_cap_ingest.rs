//! EAS / CAP ingest: the network pulls Common Alerting Protocol alerts from
//! the state feed and fans them out to member stations. Engineers
//! acknowledge alerts from the console (see `ack`), and the poller records
//! what it has already fanned out.

use crosspoint::badge::Engineer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use spool::cart::Cart;

pub struct CapDesk {
    /// Engineers' acknowledgements, keyed by request.
    pub acks: Cart,
    /// Alerts already fanned out; only the poller writes here.
    pub inbox: Cart,
    /// Relay decisions taken by engineers or by the auto-relay rule.
    pub relays: Cart,
}

pub struct CapAlert {
    pub identifier: String,
    pub sender: String,
    pub event: String,
    pub areas: Vec<String>,
}

pub fn parse_alert(xml: &str) -> Result<CapAlert, roxmltree::Error> {
    let doc = roxmltree::Document::parse(xml)?;
    let text = |tag: &str| doc.descendants().find(|n| n.has_tag_name(tag)).and_then(|n| n.text()).unwrap_or_default().to_owned();
    Ok(CapAlert {
        identifier: text("identifier"),
        sender: text("sender"),
        event: text("event"),
        areas: doc.descendants().filter(|n| n.has_tag_name("areaDesc")).filter_map(|n| n.text()).map(str::to_owned).collect(),
    })
}

impl CapDesk {
    pub async fn ack(&self, inb: Inbound) -> Result<Outbound, Glitch> {
        let eng = inb.badge::<Engineer>().ok_or(Glitch::unauthorized())?.clone();
        let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
        let key = scoped(&eng.org_id, &eng.sub, "/v1/cap/ack", &k).map_err(Glitch::scope)?;
        let slot = format!("req/{}", key.storage_key());
        if let Some(prior) = self.acks.get(&slot).await? {
            return Ok(Outbound::replay(prior));
        }
        let alert_id = inb.param("alert")?.to_owned();
        let acked = crate::eas::acknowledge(&eng.org_id, &alert_id).await?;
        self.acks.put(&slot, &serde_json::to_vec(&acked).unwrap_or_default()).await?;
        let decision = scoped(&eng.org_id, &eng.sub, "/v1/cap/relay", &k).map_err(Glitch::scope)?;
        self.relays.put(decision.storage_key(), b"manual").await?;
        Ok(Outbound::json(Status::OK, &acked))
    }

    pub async fn poll_once(&self, tenant_id: &str, feed_xml: &[String]) -> Result<usize, Glitch> {
        let mut fanned = 0;
        for xml in feed_xml {
            let alert = parse_alert(xml).map_err(Glitch::bad_request)?;
            if self.inbox.exists(&alert.identifier).await? {
                continue;
            }
            crate::eas::fan_out(tenant_id, &alert.event, &alert.areas).await?;
            self.inbox.put(&alert.identifier, alert.sender.as_bytes()).await?;
            self.acks.put(&format!("cap/{tenant_id}/{}", alert.identifier), b"auto").await?;
            if alert.event == "RWT" {
                self.relays.put(&format!("s:{tenant_id}:{}", alert.identifier), b"auto-relay").await?;
            }
            fanned += 1;
        }
        Ok(fanned)
    }
}
