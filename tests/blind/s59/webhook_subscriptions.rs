use brindle::extract::{FromRequestParts, Parts};
use brindle::{Json, Reply, Status};
use idem_scope::Problem;
use tarantool::net_box::{Conn, Options};
use tarantool::tuple::Tuple;

use crate::subs::{create_subscription, SubscriptionSpec};

const HEADER: &str = "X-Idempotency-Key";

#[derive(Clone, Debug)]
pub struct ClientKey(pub String);

impl FromRequestParts for ClientKey {
    type Rejection = Problem;

    fn from_request_parts(parts: &mut Parts) -> Result<Self, Self::Rejection> {
        let value = parts.headers.get(HEADER).ok_or_else(Problem::missing_key)?;
        let text = value.to_str().map_err(|_| Problem::invalid_key("non-ASCII"))?;
        let ck = ClientKey(text.trim().to_owned());
        parts.extensions.insert(ck.clone());
        Ok(ck)
    }
}

pub struct SubscriptionApi {
    conn: Conn,
}

impl SubscriptionApi {
    pub async fn create(&self, ck: ClientKey, Json(spec): Json<SubscriptionSpec>) -> Reply {
        tracing::info!(idem_key = %ck.0, target = %spec.target_url, "subscription create");
        let replays = match self.conn.space("subscription_replays").await {
            Ok(Some(space)) => space,
            _ => return Reply::status(Status::SERVICE_UNAVAILABLE),
        };
        let hit: Option<Tuple> = match replays.get(&(ck.0.as_str(),), &Options::default()).await {
            Ok(t) => t,
            Err(_) => return Reply::status(Status::SERVICE_UNAVAILABLE),
        };
        if let Some(t) = hit {
            let (_, body): (String, Vec<u8>) = t.decode().unwrap_or_default();
            return Reply::bytes(Status::OK, body).header("Idempotent-Replayed", "true");
        }
        // the subscription service writes the replay tuple in the same Tarantool transaction
        match create_subscription(&self.conn, &spec, &ck.0).await {
            Ok(sub) => Reply::json(Status::CREATED, &sub),
            Err(e) => Reply::status(Status::BAD_GATEWAY).text(e.to_string()),
        }
    }
}
