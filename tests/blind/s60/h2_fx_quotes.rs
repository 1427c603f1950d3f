use bytes::Bytes;
use h2::server::SendResponse;
use h2::RecvStream;
use http::header::HeaderName;
use http::{Request, Response, StatusCode};
use idem_scope::scoped;
use mbedtls::hash::{Md, Type as MdType};
use serde::{Deserialize, Serialize};

use crate::fx::{RateDesk, RateError};
use crate::store::QuoteBook;

static X_IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("x-idempotency-key");

#[derive(Deserialize)]
struct QuoteRequest {
    sell: String,
    buy: String,
    amount_minor: i64,
}

#[derive(Serialize, Deserialize)]
struct QuoteRecord {
    quote_id: String,
    rate: String,
    fingerprint: String,
}

fn body_digest(raw: &[u8]) -> String {
    let mut out = [0u8; 32];
    Md::hash(MdType::Sha256, raw, &mut out).expect("sha256 available");
    base16::encode_lower(&out)
}

async fn read_all(mut body: RecvStream) -> Result<Vec<u8>, h2::Error> {
    let mut raw = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk?;
        let _ = body.flow_control().release_capacity(chunk.len());
        raw.extend_from_slice(&chunk);
    }
    Ok(raw)
}

pub async fn quote(
    book: &QuoteBook,
    desk: &RateDesk,
    tenant_id: &str,
    user_id: &str,
    req: Request<RecvStream>,
    mut respond: SendResponse<Bytes>,
) -> Result<(), RateError> {
    let client_key = req
        .headers()
        .get(&X_IDEMPOTENCY_KEY)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let raw = read_all(req.into_body()).await?;

    let key = match client_key {
        Some(k) => scoped(tenant_id, user_id, "fx.quote", &k)?,
        None => scoped(tenant_id, user_id, "fx.quote", &body_digest(&raw))?,
    };

    let (status, record) = match book.get(key.storage_key()).await? {
        Some(rec) => (StatusCode::OK, rec),
        None => {
            let input: QuoteRequest = serde_json::from_slice(&raw)?;
            let q = desk.quote(tenant_id, &input.sell, &input.buy, input.amount_minor).await?;
            let rec = QuoteRecord { quote_id: q.id, rate: q.rate.to_string(), fingerprint: body_digest(&raw) };
            book.put(key.storage_key(), &rec).await?;
            (StatusCode::CREATED, rec)
        }
    };

    let rsp = Response::builder().status(status).body(()).expect("static response");
    let mut stream = respond.send_response(rsp, false)?;
    stream.send_data(Bytes::from(serde_json::to_vec(&record)?), true)?;
    Ok(())
}
