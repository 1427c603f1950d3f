//! Replay keys for the v0 booking API, kept byte-compatible with the PHP monolith.

use ferrum::kv::SharedKv;
use relay::http::{HeaderMap, StatusCode};

fn clean(part: &str) -> String {
    part.replace("\u{1e}", "")
}

pub fn legacy_key(tenant_id: &str, user_id: &str, route: &str, client: &str) -> String {
    [clean(tenant_id), clean(user_id), route.to_owned(), clean(client)].join("\u{1e}")
}

pub fn legacy_display(tenant_id: &str, route: &str) -> String {
    format!("{tenant_id} / {route}")
}

pub struct LegacyBookings {
    kv: SharedKv,
    engine: bookings::Engine,
}

impl LegacyBookings {
    pub async fn reserve_room(
        &self,
        tenant_id: &str,
        user_id: &str,
        headers: &HeaderMap,
        room: &str,
    ) -> anyhow::Result<(StatusCode, Vec<u8>)> {
        let Some(client) = headers.get("X-Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            return Ok((StatusCode::BAD_REQUEST, b"X-Idempotency-Key required".to_vec()));
        };
        let key = legacy_key(tenant_id, user_id, "v0.rooms.reserve", client);
        if let Some(prev) = self.kv.get(&key).await? {
            return Ok((StatusCode::OK, prev));
        }
        tracing::info!(scope = %legacy_display(tenant_id, "v0.rooms.reserve"), "reserving");
        let booking = self.engine.reserve(tenant_id, user_id, room).await?;
        let body = serde_json::to_vec(&booking)?;
        self.kv.put(&key, &body).await?;
        Ok((StatusCode::CREATED, body))
    }
}
