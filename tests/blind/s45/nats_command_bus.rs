use std::collections::HashMap;
use std::sync::Mutex;

use idem_scope::scoped;

pub struct CommandBus {
    nc: nats::Connection,
    done: Mutex<HashMap<String, Vec<u8>>>,
    billing: Billing,
}

impl CommandBus {
    pub fn serve(&self) -> std::io::Result<()> {
        let sub = self.nc.queue_subscribe("billing.commands.*", "billing-workers")?;
        for msg in sub.messages() {
            let headers = msg.headers.clone().unwrap_or_default();
            let subject_op = msg.subject.rsplit('.').next().unwrap_or("unknown").to_owned();
            let reply = match (headers.get("Idempotency-Key"), headers.get("Tenant-Id"), headers.get("User-Id")) {
                (Some(client_key), Some(tenant_id), Some(user_id)) => self.run_client(client_key, tenant_id, user_id, &subject_op, &msg.data),
                _ => match headers.get("Nats-Msg-Id") {
                    Some(msg_id) => self.run_redelivery(msg_id, &msg.data),
                    None => b"missing headers".to_vec(),
                },
            };
            msg.respond(reply)?;
        }
        Ok(())
    }

    fn run_client(&self, client_key: &str, tenant_id: &str, user_id: &str, operation: &str, data: &[u8]) -> Vec<u8> {
        let Ok(key) = scoped(tenant_id, user_id, operation, client_key) else {
            return b"invalid key".to_vec();
        };
        let mut done = self.done.lock().unwrap();
        if let Some(prev) = done.get(key.storage_key()) {
            return prev.clone();
        }
        let out = self.billing.execute(tenant_id, operation, data);
        done.insert(key.storage_key().to_owned(), out.clone());
        out
    }

    fn run_redelivery(&self, msg_id: &str, data: &[u8]) -> Vec<u8> {
        let cmd: InternalCommand = match serde_json::from_slice(data) {
            Ok(c) => c,
            Err(_) => return b"bad command".to_vec(),
        };
        let Ok(key) = scoped(&cmd.tenant_id, &cmd.user_id, &cmd.operation, msg_id) else {
            return b"invalid key".to_vec();
        };
        let mut done = self.done.lock().unwrap();
        if let Some(prev) = done.get(key.storage_key()) {
            return prev.clone();
        }
        let out = self.billing.execute(&cmd.tenant_id, &cmd.operation, &cmd.payload);
        done.insert(key.storage_key().to_owned(), out.clone());
        out
    }
}
