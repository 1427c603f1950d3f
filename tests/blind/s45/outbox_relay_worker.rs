use std::time::Duration;

use idem_scope::{scoped, Problem};
use rouille::{Request, Response};

pub struct EmailService {
    sends: SendRecords,
    outbox: Outbox,
    smtp_relay: RelayClient,
}

pub struct OutboxJob {
    pub job_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub template: String,
    pub attempts: u32,
}

impl EmailService {
    pub fn send_now(&self, request: &Request, tenant_id: &str, user_id: &str) -> Response {
        let Some(client_ref) = request.header("Idempotency-Key") else {
            return Response::text(Problem::missing_key().to_json()).with_status_code(400);
        };
        let key = match scoped(tenant_id, user_id, "emails.send", client_ref) {
            Ok(k) => k,
            Err(e) => return Response::text(Problem::invalid_key(&e.to_string()).to_json()).with_status_code(400),
        };
        if self.sends.contains(&key) {
            return Response::text("already sent").with_status_code(200);
        }
        let template = rouille::input::plain_text_body(request).unwrap_or_default();
        match self.smtp_relay.send(tenant_id, &template) {
            Ok(_) => {
                self.sends.insert(&key, "sent");
                Response::text("sent").with_status_code(202)
            }
            Err(e) => Response::text(e.to_string()).with_status_code(502),
        }
    }

    /// Background relay: retries outbox jobs and records them like client sends.
    pub fn relay_due(&self) -> Result<usize, RelayError> {
        let mut sent = 0;
        for job in self.outbox.due(Duration::from_secs(30))? {
            let key = scoped(&job.tenant_id, &job.user_id, "emails.send", &job.job_id)?;
            if self.sends.contains(&key) {
                self.outbox.ack(&job.job_id)?;
                continue;
            }
            self.smtp_relay.send(&job.tenant_id, &job.template)?;
            self.sends.insert(&key, "sent");
            self.outbox.ack(&job.job_id)?;
            sent += 1;
        }
        Ok(sent)
    }
}
