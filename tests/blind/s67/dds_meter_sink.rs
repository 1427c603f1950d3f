use dunlin::kv::BlockingKv;
use idem_scope::{scoped, scoped_server};
use plover::auth::Caller;
use plover::blocking::{Request, Response};
use rustdds::with_key::DataReader;

#[derive(Clone)]
pub struct MeterReading {
    pub message_id: String,
    pub site_id: String,
    pub meter_id: String,
    pub kwh: f64,
}

pub struct Readings {
    pub kv: BlockingKv,
}

impl Readings {
    pub fn submit(&self, req: &Request, caller: &Caller) -> Response {
        let Some(key) = req.header("Idempotency-Key") else { return Response::status(400) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "reading.submit", key) else {
            return Response::status(400);
        };
        if self.kv.exists(sk.storage_key()).unwrap_or(false) {
            return Response::status(200);
        }
        crate::meters::store_manual(caller, req.body());
        self.kv.put(sk.storage_key(), b"stored".to_vec()).ok();
        Response::status(201)
    }

    pub fn drain(&self, reader: &mut DataReader<MeterReading>) {
        while let Ok(Some(sample)) = reader.take_next_sample() {
            let r = sample.into_value();
            let Ok(sk) = scoped(&r.site_id, &r.meter_id, "reading.submit", &r.message_id) else { continue };
            if self.kv.exists(sk.storage_key()).unwrap_or(false) {
                continue;
            }
            crate::meters::store(&r.site_id, &r.meter_id, r.kwh);
            self.kv.put(sk.storage_key(), b"stored".to_vec()).ok();
        }
    }

    pub fn drain_corrections(&self, reader: &mut DataReader<MeterReading>) {
        while let Ok(Some(sample)) = reader.take_next_sample() {
            let r = sample.into_value();
            let Ok(sk) = scoped_server(&r.site_id, &r.meter_id, "reading.correct", &r.message_id) else { continue };
            if !self.kv.exists(sk.storage_key()).unwrap_or(false) {
                crate::meters::correct(&r.site_id, &r.meter_id, r.kwh);
                self.kv.put(sk.storage_key(), b"corrected".to_vec()).ok();
            }
        }
    }
}
