use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::Mutex;

use chrono::Utc;
use uuid::Uuid;

pub struct AuditTrail {
    out: Mutex<BufWriter<File>>,
}

fn escape_field(v: &str) -> String {
    v.replace('\\', "\\\\").replace('|', "\\|").replace('\n', "\\n")
}

impl AuditTrail {
    pub fn open(path: &str) -> std::io::Result<Self> {
        let f = File::options().create(true).append(true).open(path)?;
        Ok(Self { out: Mutex::new(BufWriter::new(f)) })
    }

    pub fn record_request(&self, headers: &gatehouse::http::HeaderMap, tenant_id: &str, route: &str, status: u16) {
        let idem = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).unwrap_or("-");
        let request_id = headers.get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("-");
        let correlation = Uuid::new_v4();
        tracing::info!(%correlation, request_id, idempotency_key = idem, tenant_id, route, status, "request audited");

        let line = format!(
            "{}|{}|{}|{}|{}|{}",
            Utc::now().to_rfc3339(),
            escape_field(tenant_id),
            escape_field(route),
            escape_field(idem),
            escape_field(request_id),
            status
        );
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{line}");
        }
    }

    pub fn record_event(&self, event_id: &str, kind: &str) -> anyhow::Result<()> {
        let mut out = self.out.lock().map_err(|_| anyhow::anyhow!("audit writer poisoned"))?;
        write!(out, "{}|event|{}|{}", Utc::now().to_rfc3339(), escape_field(event_id), kind.trim_matches('|'))?;
        writeln!(out)?;
        out.flush()?;
        Ok(())
    }
}
