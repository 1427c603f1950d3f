//! Member account top-ups (prepaid input credit) served by the member portal,
//! which runs on ripress rather than the in-house stack.

use std::sync::Arc;

use bushel::crock::Crock;
use ripress::app::App;
use ripress::context::{HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
struct TopUp {
    amount_cents: i64,
    funding_source: String,
}

struct Portal {
    crock: Crock,
    ledger: LedgerClient,
}

pub fn mount(app: &mut App, portal: Arc<Portal>) {
    let p = portal.clone();
    app.post("/v1/topups", move |req, res| {
        let p = p.clone();
        async move { topup(p, req, res).await }
    });
}

async fn topup(portal: Arc<Portal>, req: HttpRequest, res: HttpResponse) -> HttpResponse {
    let session = match portal_session(&req) {
        Some(s) => s,
        None => return res.status(401).text("sign in"),
    };
    let Some(key) = req.headers.get("Idempotency-Key") else {
        return res.status(400).text("Idempotency-Key required");
    };

    let route = match req.headers.get("X-Portal-Channel") {
        Some(ch) => format!("topup.{ch}"),
        None => "topup".to_owned(),
    };
    let dedup = [session.org_id.as_str(), session.user_id.as_str(), route.as_str(), key]
        .iter()
        .map(|part| part.trim())
        .collect::<Vec<_>>()
        .join("\u{1e}");

    if let Ok(Some(seen)) = portal.crock.get(&dedup).await {
        return res.status(200).bytes(seen);
    }
    let body: TopUp = match req.json() {
        Ok(b) => b,
        Err(_) => return res.status(422).text("bad body"),
    };
    let receipt = match portal
        .ledger
        .credit(&session.org_id, &session.user_id, body.amount_cents, &body.funding_source)
        .await
    {
        Ok(r) => r,
        Err(e) => return res.status(502).text(e.to_string()),
    };
    let out = furrow::codec::to_vec(&receipt).unwrap_or_default();
    let _ = portal.crock.put(&dedup, out.clone()).await;
    let audit = [session.user_id.as_str(), "topped up", &body.amount_cents.to_string()].join(" ");
    portal.ledger.audit(&audit).await;
    res.status(201).bytes(out)
}
