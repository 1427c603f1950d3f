use std::time::Duration;

use idem_scope::{scoped, Problem};
use kafka::producer::{Producer, Record, RequiredAcks};
use rouille::{Request, Response};
use uuid::Uuid;

pub struct Exports {
    exports_idem: ExportIdemStore,
    producer: std::sync::Mutex<Producer>,
}

#[derive(serde::Serialize)]
struct ExportJob<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    format: &'a str,
}

impl Exports {
    pub fn connect(brokers: Vec<String>, store: ExportIdemStore) -> Result<Self, kafka::Error> {
        let producer = Producer::from_hosts(brokers)
            .with_ack_timeout(Duration::from_secs(2))
            .with_required_acks(RequiredAcks::One)
            .create()?;
        Ok(Exports { exports_idem: store, producer: std::sync::Mutex::new(producer) })
    }

    fn enqueue(&self, job: &ExportJob<'_>) -> Result<(), kafka::Error> {
        let bytes = serde_json::to_vec(job).expect("job serialises");
        self.producer.lock().unwrap().send(&Record::from_value("exports", bytes))
    }

    pub fn request_export(&self, request: &Request, tenant_id: &str, user_id: &str) -> Response {
        let Some(x_idem) = request.header("X-Idempotency-Key") else {
            return Response::text(Problem::missing_key().to_json()).with_status_code(400);
        };
        let key = match scoped(tenant_id, user_id, "exports.create", x_idem) {
            Ok(k) => k,
            Err(e) => return Response::text(Problem::invalid_key(&e.to_string()).to_json()).with_status_code(400),
        };
        if self.exports_idem.exists(&key) {
            return Response::text("accepted").with_status_code(202);
        }
        let job = ExportJob { tenant_id, user_id, format: "csv" };
        if self.enqueue(&job).is_err() {
            return Response::text("queue unavailable").with_status_code(503);
        }
        self.exports_idem.put(&key, "queued");
        Response::text("accepted").with_status_code(202)
    }

    /// Nightly exports share the dedupe table so a retried cron tick does not enqueue twice.
    pub fn nightly_export(&self, tenant_id: &str, user_id: &str) -> Result<(), ExportError> {
        let job = ExportJob { tenant_id, user_id, format: "parquet" };
        self.enqueue(&job)?;
        self.exports_idem.put(&scoped(tenant_id, user_id, "exports.create", &Uuid::new_v4().to_string())?, "queued");
        Ok(())
    }
}
