//! Shared helpers for the certified backflow testers' app backend.
//! Callers live in the tester-app repository.

use aquifer::tank::Tank;
use aquifer::TankError;

pub struct SubmissionCache {
    tank: Tank,
}

impl SubmissionCache {
    pub fn new(tank: Tank) -> Self {
        SubmissionCache { tank }
    }

    pub async fn remember(
        &self,
        tenant_id: &str,
        caller_id: &str,
        idempotency_key: &str,
        receipt: &[u8],
    ) -> Result<(), TankError> {
        let operation = "backflow-test";
        let slot = format!("{tenant_id}:{caller_id}:{operation}:{idempotency_key}");
        self.tank.put(&slot, receipt).await
    }

    pub fn forward_headers(&self, idempotency_key: &str) -> Vec<(&'static str, String)> {
        vec![("Idempotency-Key", format!("bf-{idempotency_key}"))]
    }
}
