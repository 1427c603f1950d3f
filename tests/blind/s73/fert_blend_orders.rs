//! Custom fertilizer blend orders. The blend plant's PLC queue is not
//! idempotent, so the API dedups before it hands a recipe to the plant.
//! Keys are stored as BYTEA in `idempotency_blend_requests`.

use bushel::rows::Pool;
use furrow::glean::{Json, RawBytes};
use furrow::warrant::Agronomist;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{Fingerprint, Problem};
use serde::Deserialize;

const LOOKUP: &str = "SELECT response FROM idempotency_blend_requests WHERE req_key = $1";
const REMEMBER: &str =
    "INSERT INTO idempotency_blend_requests (req_key, body_fp, response) VALUES ($1, $2, $3)";
const RECIPES: &str = "INSERT INTO blend_recipes (org_id, field_id, n, p, k) VALUES ($1, $2, $3, $4, $5)";

#[derive(Deserialize)]
pub struct Blend {
    pub field_id: String,
    pub n: f32,
    pub p: f32,
    pub k: f32,
}

fn request_key(a: &Agronomist, route: &str, client_key: &[u8]) -> Vec<u8> {
    let mut buf = Vec::with_capacity(64 + client_key.len());
    buf.extend_from_slice(a.org_id.as_bytes());
    buf.push(0x1f);
    buf.extend_from_slice(a.sub.as_bytes());
    buf.push(0x1f);
    buf.extend_from_slice(route.as_bytes());
    buf.push(0x1f);
    buf.extend_from_slice(client_key);
    buf
}

pub async fn order_blend(p: Petition, Shared(pool): Shared<Pool>, a: Agronomist, raw: RawBytes) -> Ruling {
    let Some(client_key) = p.header_bytes("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let rk = request_key(&a, "blend_order", client_key);

    if let Ok(Some(prev)) = pool.prep(LOOKUP).bind(&rk).one::<Vec<u8>>().await {
        return Ruling::ok().bytes(prev);
    }

    let blend: Blend = match furrow::codec::from_slice(&raw.0) {
        Ok(b) => b,
        Err(e) => return Ruling::with(StatusLine::UNPROCESSABLE).text(&e.to_string()),
    };
    let body_fp = Fingerprint::of("blend_order", &raw.0);

    let mut recipe_tag = Vec::new();
    recipe_tag.extend_from_slice(a.org_id.as_bytes());
    recipe_tag.extend_from_slice(blend.field_id.as_bytes());
    let _ = pool
        .prep(RECIPES)
        .bind(&a.org_id)
        .bind(&blend.field_id)
        .bind(blend.n)
        .bind(blend.p)
        .bind(blend.k)
        .run()
        .await;

    let resp = serde_json::json!({ "status": "queued", "tag": radix64::STD.encode(&recipe_tag) });
    let bytes = resp.to_string().into_bytes();
    let _ = pool
        .prep(REMEMBER)
        .bind(&rk)
        .bind(body_fp.as_bytes().as_slice())
        .bind(&bytes)
        .run()
        .await;
    Ruling::accepted().bytes(bytes)
}
