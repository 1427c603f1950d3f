use couchbase::{Cluster, GetOptions, UpsertOptions};
use idem_scope::scoped;

pub struct BookingDocs {
    cluster: Cluster,
}

pub struct GuestContext {
    pub hotel_group_id: Option<String>,
    pub tenant_id: Option<String>,
    pub user_id: Option<String>,
}

impl BookingDocs {
    pub async fn reserve_room(&self, ctx: &GuestContext, headers: &[(String, String)], room: &str) -> Result<String, BookingError> {
        let req_token = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key"))
            .map(|(_, v)| v.clone())
            .ok_or(BookingError::MissingKey)?;
        let tenant_id = ctx.tenant_id.as_deref().map_or("public", |t| t);
        let user_id = ctx.user_id.clone().ok_or(BookingError::Unauthenticated)?;
        let key = scoped(tenant_id, &user_id, "rooms.reserve", &req_token)?;
        let collection = self.cluster.bucket("bookings").default_collection();
        if let Ok(doc) = collection.get(key.storage_key(), GetOptions::default()).await {
            return Ok(doc.content::<String>()?);
        }
        let confirmation = format!("cnf-{}-{}", room, chrono::Utc::now().timestamp_millis());
        collection.upsert(key.storage_key(), &confirmation, UpsertOptions::default()).await?;
        Ok(confirmation)
    }

    pub async fn guest_profile(&self, ctx: &GuestContext, guest_id: &str) -> Result<serde_json::Value, BookingError> {
        let group = ctx.hotel_group_id.clone().unwrap_or_else(|| "independent".to_owned());
        let doc_id = format!("profile::{}::{}", group, guest_id);
        let doc = self.cluster.bucket("guests").default_collection().get(&doc_id, GetOptions::default()).await?;
        Ok(doc.content()?)
    }
}
