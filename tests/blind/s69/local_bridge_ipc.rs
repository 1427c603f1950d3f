//! On-site controller: the local REST API (used by the installer app over
//! the site Wi-Fi) and the iceoryx2 bridge from the OCPP daemon both apply
//! load-management setpoints.

use garner::bin::SyncBin;
use iceoryx2::prelude::*;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::sync::{SyncCx, SyncReply};
use trellis::Code;

#[derive(Debug, Clone, Copy, ZeroCopySend)]
#[repr(C)]
pub struct Setpoint {
    pub event_id: [u8; 26],
    pub amps: u16,
}

pub struct Site {
    pub applied: SyncBin,
    pub org_id: String,
    pub daemon_user_id: String,
}

impl Site {
    pub fn rest_setpoint(&self, cx: SyncCx, who: Identity) -> SyncReply {
        let Some(key) = cx.header("Idempotency-Key") else {
            return SyncReply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&who.org_id, &who.user_id, "/local/setpoints", key) else {
            return SyncReply::status(Code::BAD_REQUEST);
        };
        if self.applied.exists(sk.storage_key()).unwrap_or(false) {
            return SyncReply::status(Code::OK);
        }
        crate::loadmgmt::apply(cx.body());
        let _ = self.applied.put(sk.storage_key(), b"1");
        SyncReply::status(Code::OK)
    }

    pub fn run_bridge(&self) -> Result<(), Box<dyn std::error::Error>> {
        let node = NodeBuilder::new().create::<ipc::Service>()?;
        let service = node.service_builder(&"site/setpoints".try_into()?).publish_subscribe::<Setpoint>().open_or_create()?;
        let subscriber = service.subscriber_builder().create()?;
        while node.wait(std::time::Duration::from_millis(50)).is_ok() {
            while let Some(sample) = subscriber.receive()? {
                let event_id = String::from_utf8_lossy(&sample.event_id).into_owned();
                let Ok(sk) = scoped(&self.org_id, &self.daemon_user_id, "/local/setpoints", &event_id) else {
                    continue;
                };
                if self.applied.exists(sk.storage_key()).unwrap_or(false) {
                    continue;
                }
                crate::loadmgmt::set_amps(sample.amps);
                let _ = self.applied.put(sk.storage_key(), b"1");
            }
        }
        Ok(())
    }
}
