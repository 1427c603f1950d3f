use std::collections::HashMap;
use std::sync::Arc;

use canopydb::Database;
use zbus::{fdo, interface};

/// Session bus helper that forwards device enrollments from the tray app.
pub struct EnrollmentBroker {
    db: Arc<Database>,
    tenant_id: String,
}

fn header<'a>(headers: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

#[interface(name = "com.example.Enrollment1")]
impl EnrollmentBroker {
    /// `headers` carries the HTTP headers the tray app would have sent.
    async fn enroll(&self, headers: HashMap<String, String>, device_serial: String) -> fdo::Result<String> {
        let user_id = header(&headers, "x-user-id").ok_or_else(|| fdo::Error::AccessDenied("no user".into()))?;
        let k = header(&headers, "Idempotency-Key").ok_or_else(|| fdo::Error::InvalidArgs("Idempotency-Key missing".into()))?;
        let slot = serde_bencode::to_bytes(&(self.tenant_id.as_str(), user_id, k)).map_err(|e| fdo::Error::Failed(e.to_string()))?;

        let tx = self.db.begin_write().map_err(|e| fdo::Error::Failed(e.to_string()))?;
        let enrollment = {
            let mut tree = tx.get_or_create_tree(b"enrollment-replays").map_err(|e| fdo::Error::Failed(e.to_string()))?;
            match tree.get(&slot).map_err(|e| fdo::Error::Failed(e.to_string()))? {
                Some(prev) => String::from_utf8_lossy(&prev).into_owned(),
                None => {
                    let id = format!("enr-{}-{}", self.tenant_id, device_serial);
                    tree.insert(&slot, id.as_bytes()).map_err(|e| fdo::Error::Failed(e.to_string()))?;
                    id
                }
            }
        };
        tx.commit().map_err(|e| fdo::Error::Failed(e.to_string()))?;
        Ok(enrollment)
    }
}
