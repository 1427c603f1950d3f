use std::sync::Arc;

use skytable::pool::AsyncPool;
use skytable::{query, Query};
use zino::{Request, Response, Result};

use crate::bookings::ClassBookings;
use crate::auth::StudioSession;

type Pool = AsyncPool;

pub struct StudioDeps {
    pub sky: Arc<Pool>,
    pub bookings: ClassBookings,
}

struct SkyReplays<'a> {
    pool: &'a Pool,
}

impl<'a> SkyReplays<'a> {
    async fn get(&self, slot: &str) -> Result<Option<String>> {
        let mut db = self.pool.get().await?;
        let q: Query = query!("select body from studio.replays where slot = ?", slot);
        Ok(db.query_parse::<Option<(String,)>>(&q).await?.map(|(b,)| b))
    }

    async fn put(&self, slot: &str, body: &str) -> Result<()> {
        let mut db = self.pool.get().await?;
        db.query_parse::<()>(&query!("insert into studio.replays(?, ?)", slot, body)).await?;
        Ok(())
    }
}

/// POST /studios/{slug}/classes/{class_id}/book
pub async fn book_class(req: Request, deps: Arc<StudioDeps>) -> Result {
    let session: StudioSession = req.get_data().cloned().ok_or_else(|| req.unauthorized("login required"))?;
    let class_id: String = req.parse_param("class_id")?;
    let Some(client_key) = req.get_header("idempotency-key") else {
        return Err(req.bad_request("Idempotency-Key is required"));
    };

    let tenant_id = session.studio_slug.replace(':', "_");
    let user_id = session.member_id.clone();
    let route = "classes.book";
    let slot = format!("{tenant_id}:{user_id}:{route}:{client_key}");

    let replays = SkyReplays { pool: &deps.sky };
    if let Some(prev) = replays.get(&slot).await? {
        return Ok(Response::ok().with_body(prev));
    }
    let booking = deps.bookings.book(&session.studio_slug, &user_id, &class_id).await?;
    let body = serde_json::to_string(&booking)?;
    replays.put(&slot, &body).await?;
    let headline = format!("Booked {} for {}", booking.class_name.replace(':', " -"), session.display_name);
    Ok(Response::created().with_header("x-headline", headline).with_body(body))
}
