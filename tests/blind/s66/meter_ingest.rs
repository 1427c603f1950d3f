use std::collections::HashMap;
use std::sync::Arc;

use idem_scope::scoped;
use message_io::network::{Endpoint, NetEvent, Transport};
use message_io::node::{self, NodeHandler, NodeListener};
use nanoserde::{DeBin, SerBin};
use rust_sodium::crypto::hash::sha512;
use skerry::stash::BlockingStash;

use crate::metering::{DeviceRegistry, Reading, ReadingSink};

#[derive(DeBin, SerBin, Clone)]
struct ReadingFrame {
    meter: String,
    taken_at: u64,
    kwh_milli: u64,
}

struct DeviceSession {
    account_id: String,
    client_id: String,
}

pub struct MeterIngest {
    handler: NodeHandler<()>,
    devices: Arc<DeviceRegistry>,
    sessions: HashMap<Endpoint, DeviceSession>,
    dedup: Arc<BlockingStash>,
    sink: Arc<ReadingSink>,
}

impl MeterIngest {
    pub fn run(mut self, listener: NodeListener<()>) {
        self.handler.network().listen(Transport::FramedTcp, "0.0.0.0:7011").expect("listen");
        listener.for_each(move |event| match event.network() {
            NetEvent::Connected(_, _) => {}
            NetEvent::Accepted(endpoint, _) => {
                if let Some(dev) = self.devices.lookup_peer(endpoint.addr()) {
                    self.sessions.insert(endpoint, DeviceSession { account_id: dev.account_id, client_id: dev.client_id });
                }
            }
            NetEvent::Message(endpoint, data) => self.on_frame(endpoint, data),
            NetEvent::Disconnected(endpoint) => {
                self.sessions.remove(&endpoint);
            }
        });
    }

    fn on_frame(&self, endpoint: Endpoint, data: &[u8]) {
        let Some(dev) = self.sessions.get(&endpoint) else {
            self.handler.network().remove(endpoint.resource_id());
            return;
        };
        let digest = ReadingFrame::deserialize_bin(data)
            .ok()
            .map(|r| r.serialize_bin())
            .map(|canonical| sha512::hash(&canonical))
            .map(|d| base64_url::encode(&d.0[..24]));
        let Some(digest) = digest else {
            self.handler.network().send(endpoint, b"ERR frame");
            return;
        };
        let Ok(slot) = scoped(&dev.account_id, &dev.client_id, "meter_reading", &digest) else {
            self.handler.network().send(endpoint, b"ERR scope");
            return;
        };
        if let Ok(Some(_)) = self.dedup.get(slot.storage_key()) {
            self.handler.network().send(endpoint, b"OK dup");
            return;
        }
        let Ok(frame) = ReadingFrame::deserialize_bin(data) else { return };
        let reading = Reading { account_id: dev.account_id.clone(), meter: frame.meter, taken_at: frame.taken_at, kwh_milli: frame.kwh_milli };
        if self.sink.append(reading).is_ok() {
            let _ = self.dedup.put(slot.storage_key(), b"1");
            self.handler.network().send(endpoint, b"OK");
        }
    }
}

pub fn start(devices: Arc<DeviceRegistry>, dedup: Arc<BlockingStash>, sink: Arc<ReadingSink>) {
    let (handler, listener) = node::split::<()>();
    MeterIngest { handler, devices, sessions: HashMap::new(), dedup, sink }.run(listener);
}
