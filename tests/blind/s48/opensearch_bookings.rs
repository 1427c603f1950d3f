use idem_scope::{scoped, Fingerprint, Problem};
use opensearch::{GetParts, IndexParts, OpenSearch};
use rkyv::{Archive, Deserialize as RkyvDe, Serialize as RkyvSer};
use ring::digest::{Context as DigestCtx, SHA256};
use serde_json::json;
use spin_sdk::http::{Request, Response};

#[derive(Archive, RkyvSer, RkyvDe, serde::Deserialize)]
pub struct BookingInput {
    pub listing: String,
    pub nights: u16,
    pub guests: u8,
}

pub struct Booker {
    pub account_id: String,
    pub uid: String,
}

fn digest_input(input: &BookingInput) -> String {
    let archived = rkyv::to_bytes::<rkyv::rancor::Error>(input).expect("archive");
    let mut ctx = DigestCtx::new(&SHA256);
    ctx.update(&archived);
    let d = ctx.finish();
    d.as_ref().iter().fold(String::new(), |mut s, b| {
        s.push_str(&format!("{:02x}", b));
        s
    })
}

pub async fn book(client: &OpenSearch, who: &Booker, req: Request) -> anyhow::Result<Response> {
    let input: BookingInput = serde_json::from_slice(req.body())?;
    let Some(_ck) = req.header("Idempotency-Key").and_then(|h| h.as_str()) else {
        let p = Problem::missing_key();
        return Ok(Response::new(p.status(), p.to_json()));
    };
    let fingerprint = Fingerprint::of("bookings", req.body());
    let key = scoped(&who.account_id, &who.uid, "bookings", &digest_input(&input))?;
    let hit = client.get(GetParts::IndexId("idempotency", key.storage_key())).send().await?;
    if hit.status_code().is_success() {
        let v: serde_json::Value = hit.json().await?;
        return Ok(Response::new(200, v["_source"]["reply"].to_string()));
    }
    let reply = json!({ "listing": input.listing, "nights": input.nights, "guests": input.guests });
    client
        .index(IndexParts::IndexId("idempotency", key.storage_key()))
        .body(json!({ "reply": reply, "fingerprint": fingerprint.as_bytes().to_vec() }))
        .send()
        .await?;
    Ok(Response::new(201, reply.to_string()))
}
