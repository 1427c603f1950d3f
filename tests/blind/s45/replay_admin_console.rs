use idem_scope::{scoped, scoped_server};
use rouille::{Request, Response};

pub struct AdminConsole {
    replays: ReplayRecords,
    orders: OrderService,
}

impl AdminConsole {
    pub fn customer_retry(&self, request: &Request, org_id: &str, user_id: &str) -> Response {
        let Some(token) = request.header("idempotency-key") else {
            return Response::text("missing key").with_status_code(400);
        };
        let Ok(key) = scoped(org_id, user_id, "orders.resubmit", token) else {
            return Response::text("bad key").with_status_code(400);
        };
        if let Some(prev) = self.replays.get(&key) {
            return Response::text(prev);
        }
        let out = self.orders.resubmit(org_id);
        self.replays.put(&key, &out);
        Response::text(out)
    }

    /// Support staff replays a failed order from the console.
    pub fn staff_replay(&self, org_id: &str, user_id: &str, replay_id: &str) -> Result<String, AdminError> {
        let key = scoped(org_id, user_id, "orders.resubmit", &format!("replay:{}", replay_id))?;
        if let Some(prev) = self.replays.get(&key) {
            return Ok(prev);
        }
        let out = self.orders.resubmit(org_id);
        self.replays.put(&key, &out);
        Ok(out)
    }

    pub fn bulk_replay(&self, org_id: &str, user_id: &str, replay_ids: &[String]) -> Result<usize, AdminError> {
        let mut n = 0;
        for replay_id in replay_ids {
            let key = scoped_server(org_id, user_id, "orders.resubmit", replay_id)?;
            if self.replays.get(&key).is_none() {
                let out = self.orders.resubmit(org_id);
                self.replays.put(&key, &out);
                n += 1;
            }
        }
        Ok(n)
    }
}
