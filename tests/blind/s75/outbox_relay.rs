//! Transactional outbox for box-office orders. The order route writes the
//! order, the client's idempotency record and an outbox row in one
//! transaction; the relay pushes outbox rows to partner systems.
use idem_scope::{scoped, Problem};
use loft::pinrail::PinRail;
use proscenium::callout::Callout;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct OutboxRow {
    pub event_id: String,
    pub org_id: String,
    pub actor: String,
    pub route: String,
    pub partner_url: String,
    pub payload: Vec<u8>,
}

pub struct Relay {
    pub rail: PinRail,
    pub orders: crate::orders::OrderBook,
}

pub async fn place_order(cue: Cue, patron: Patron, house: House<Relay>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "place_order", key).map_err(Flub::bad_request)?;
    let c = sk.columns();
    let draft = house.orders.draft(&patron.org_id, cue.body()).await?;
    let body = serde_json::to_vec(&draft).map_err(Flub::internal)?;

    let tx = house.rail.begin().await?;
    let fresh = tx
        .query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status, response) VALUES ($1, $2, $3, $4, $5, $6, 'completed', $7) ON CONFLICT DO NOTHING")
        .bind(c.scope_version)
        .bind(c.tenant_id)
        .bind(c.principal_id)
        .bind(c.route)
        .bind(c.ns)
        .bind(c.idem_key)
        .bind(&body)
        .run()
        .await?;
    if fresh == 0 {
        tx.rollback().await?;
        return Ok(Curtain::new(200).text("order already placed"));
    }
    house.orders.insert_in(&tx, &draft).await?;
    tx.query("INSERT INTO outbox (event_id, org_id, actor, route, partner_url, payload) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(&draft.event_id)
        .bind(&patron.org_id)
        .bind(&patron.user_id)
        .bind("order_placed")
        .bind(&draft.partner_url)
        .bind(&body)
        .run()
        .await?;
    tx.commit().await?;
    Ok(Curtain::bytes(201, body))
}

/// One relay pass; run every few seconds by the scheduler.
pub async fn relay_once(relay: &Relay) -> Result<usize, loft::LoftError> {
    let batch: Vec<OutboxRow> = relay
        .rail
        .query("SELECT event_id, org_id, actor, route, partner_url, payload FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 100")
        .all()
        .await?;
    let mut pushed = 0;
    for row in batch {
        let first = relay
            .rail
            .query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES ('v1', $1, $2, $3, 'u:', $4, 'completed') ON CONFLICT DO NOTHING")
            .bind(&row.org_id)
            .bind(&row.actor)
            .bind(&row.route)
            .bind(&row.event_id)
            .run()
            .await?;
        if first > 0 {
            let _ = Callout::post(&row.partner_url)
                .header("Idempotency-Key", &row.event_id)
                .bytes(row.payload.clone())
                .send()
                .await;
            pushed += 1;
        }
        relay
            .rail
            .query("UPDATE outbox SET sent_at = now() WHERE event_id = $1")
            .bind(&row.event_id)
            .run()
            .await?;
    }
    Ok(pushed)
}
