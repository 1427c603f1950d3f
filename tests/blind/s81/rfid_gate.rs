//! Turnstile admissions. Staff can admit a guest by hand from the gate
//! tablet; the RFID turnstiles report admissions over a serial line. Both
//! paths record the admission in the same tank so a wristband is never
//! admitted twice.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use enclosure::pass::Staff;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use tokio::sync::mpsc;

const READER_PRINCIPAL: &str = "svc-turnstile";

pub struct Frame {
    event_id: u64,
    wristband: String,
    heartbeat: bool,
}

pub struct GateAdmissions {
    org_id: String,
    admits: Tank,
    telemetry: Tank,
    passes: crate::passes::PassBook,
}

impl GateAdmissions {
    /// `POST /v1/gate/admit` from the gate tablet.
    pub async fn manual_admit(&self, visit: Visit, staff: Staff) -> Result<Reply, Fault> {
        let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
        let wristband = visit.query("wristband").ok_or_else(|| Fault::bad_request("wristband"))?;
        let slot = scoped(&staff.org_id, &staff.sub, "gate.admit", key).map_err(Fault::bad_request)?;
        if self.admits.exists(slot.storage_key()).await? {
            return Ok(Reply::empty(Status::OK));
        }
        self.passes.admit(&staff.org_id, wristband).await?;
        self.admits.put(slot.storage_key(), wristband.as_bytes()).await?;
        Ok(Reply::empty(Status::CREATED))
    }

    /// Reads `EVENT_ID,WRISTBAND` lines from the turnstile controller.
    pub async fn run_reader(&self, port_name: String) -> Result<(), Fault> {
        let (tx, mut rx) = mpsc::channel::<Frame>(256);
        tokio::task::spawn_blocking(move || {
            let port = serialport::new(&port_name, 115_200).timeout(Duration::from_secs(5)).open()?;
            for line in BufReader::new(port).lines() {
                let line = line?;
                let (event_id, wristband) = line.split_once(',').unwrap_or((line.as_str(), ""));
                let frame = Frame { event_id: event_id.parse().unwrap_or(0), wristband: wristband.to_owned(), heartbeat: wristband.is_empty() };
                if tx.blocking_send(frame).is_err() {
                    break;
                }
            }
            Ok::<_, std::io::Error>(())
        });

        while let Some(frame) = rx.recv().await {
            if frame.heartbeat {
                self.telemetry.put_ttl(&format!("turnstile:{}", frame.event_id), b"hb", Duration::from_secs(300)).await?;
                continue;
            }
            let slot = scoped(&self.org_id, READER_PRINCIPAL, "gate.admit", &frame.event_id.to_string()).map_err(Fault::internal)?;
            if self.admits.exists(slot.storage_key()).await? {
                continue;
            }
            self.passes.admit(&self.org_id, &frame.wristband).await?;
            self.admits.put(slot.storage_key(), frame.wristband.as_bytes()).await?;
        }
        Ok(())
    }
}
