//! Venue hire: corporate clients and touring companies request a priced quote
//! for a date. Pricing calls the calendar service, which is often busy.
use std::time::Duration;

use idem_scope::{scoped, Problem};
use loft::pinrail::PinRail;
use proscenium::draw::JsonPart;
use proscenium::pass::Promoter;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

use crate::hire::QuoteError;

#[derive(Deserialize)]
pub struct QuoteRequest {
    pub venue_id: String,
    pub date: String,
    pub layout: String,
    pub guests: u32,
}

pub struct Hire {
    pub rail: PinRail,
    pub pricing: crate::hire::Pricing,
}

pub async fn request_quote(cue: Cue, client: Promoter, JsonPart(req): JsonPart<QuoteRequest>, hire: House<Hire>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&client.account_id, &client.client_id, "venue_quote", key).map_err(Flub::bad_request)?;
    let c = sk.columns();

    for attempt in 0..3u32 {
        let claimed = hire.rail.query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES ($1, $2, $3, $4, $5, $6, 'in_progress') ON CONFLICT DO NOTHING").bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).run().await?;
        if claimed == 0 {
            return Ok(Curtain::problem(Problem::in_progress(key)));
        }
        match hire.pricing.quote(&client.account_id, &req.venue_id, &req.date, &req.layout, req.guests).await {
            Ok(quote) => {
                let body = serde_json::to_vec(&quote).map_err(Flub::internal)?;
                hire.rail
                    .query("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
                    .bind(c.scope_version)
                    .bind(c.tenant_id)
                    .bind(c.principal_id)
                    .bind(c.route)
                    .bind(c.ns)
                    .bind(c.idem_key)
                    .bind(&body)
                    .run()
                    .await?;
                return Ok(Curtain::bytes(201, body));
            }
            Err(QuoteError::CalendarBusy) if attempt < 2 => {
                hire.rail
                    .query("DELETE FROM idempotency_records WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
                    .bind(c.scope_version)
                    .bind(c.tenant_id)
                    .bind(c.principal_id)
                    .bind(c.route)
                    .bind(c.ns)
                    .bind(c.idem_key)
                    .run()
                    .await?;
                tokio::time::sleep(Duration::from_millis(200 * u64::from(attempt + 1))).await;
                continue;
            }
            Err(QuoteError::Unpriced) => break,
            Err(e) => {
                hire.rail
                    .query("DELETE FROM idempotency_records WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
                    .bind(c.scope_version)
                    .bind(c.tenant_id)
                    .bind(c.principal_id)
                    .bind(c.route)
                    .bind(c.ns)
                    .bind(c.idem_key)
                    .run()
                    .await?;
                return Err(e.into());
            }
        }
    }
    Ok(Curtain::new(422).text("this layout cannot be priced for that date"))
}
