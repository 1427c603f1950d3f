//! Pet insurance quotes shown in the owner app.

use easy_hasher::easy_hasher::raw_sha512;
use idem_scope::scoped;
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Quotes {
    pub idem: Bunker,
    pub underwriter: crate::underwriting::Underwriter,
}

#[derive(Deserialize)]
pub struct QuoteIn {
    pub pet_id: String,
    pub plan: String,
    pub deductible_cents: i64,
    pub reimbursement_pct: u8,
}

/// Hex SHA-512 of arbitrary bytes.
fn content_tag(raw: &[u8]) -> String {
    raw_sha512(raw.to_vec()).to_hex_string()
}

pub async fn quote(inb: Inbound, owner: Owner, st: Shared<Quotes>) -> Result<Sendback, Fault> {
    let req: QuoteIn = serde_json::from_slice(inb.body())?;
    // Quotes are pure, so the request itself identifies the quote.
    let key = scoped(&owner.org_id, &owner.client_id, "/v1/insurance/quotes", &content_tag(inb.body()))?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let q = st.underwriter.quote(&owner.org_id, &req.pet_id, &req.plan, req.deductible_cents, req.reimbursement_pct).await?;
    let body = serde_json::to_vec(&q)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    let etag = content_tag(&body);
    Ok(Sendback::raw_json(Code::Ok, body).with_header("ETag", format!("\"{}\"", &etag[..32])))
}
