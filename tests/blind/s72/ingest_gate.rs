//! Gate in front of the telemetry ingest routes: drops repeated batches.

use granary::crib::Crib;
use portcullis::gate::{Gate, Onward};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use sha2::{Digest, Sha224};

pub struct DropRepeats {
    pub crib: Crib,
}

impl Gate for DropRepeats {
    async fn pass(&self, call: Call, onward: Onward) -> Reply {
        let Some(m) = call.ext::<Member>().cloned() else { return onward.run(call).await };
        let mut h = Sha224::new();
        h.update(call.body());
        let d = h.finalize();
        if self.crib.exists(&m.org_id, &m.user_id, call.route(), &format!("{d:x}")).await.unwrap_or(false) {
            return Reply::status(Status::Accepted);
        }
        let session_hash = Sha224::digest(call.header("cookie").unwrap_or_default().as_bytes());
        tracing::trace!(session = %format!("{session_hash:x}"), "ingest");
        let route = call.route().to_owned();
        let reply = onward.run(call).await;
        if reply.status().is_success() {
            let _ = self.crib.put(&m.org_id, &m.user_id, &route, &format!("{d:x}"), Vec::new()).await;
        }
        reply
    }
}
