//! Owners approve (e-sign) treatment estimates from an e-mailed link.

use easy_hasher::easy_hasher::raw_sha256;
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

const APPROVE_ROUTE: &str = "/v1/estimates/approve";

pub struct Approvals {
    pub approvals: Bunker,
    pub esign_tokens: Bunker,
    pub estimates: crate::estimates::EstimateBook,
}

#[derive(Deserialize)]
pub struct ApprovalIn {
    pub estimate_id: String,
    pub signature_svg: String,
    pub token: String,
}

/// Desk staff post the owner's signed approval on their behalf. The e-sign
/// widget resubmits the whole form on timeout, so its digest is the dedup key.
pub async fn approve(inb: Inbound, staff: Staff, st: Shared<Approvals>) -> Result<Sendback, Fault> {
    let form: ApprovalIn = serde_json::from_slice(inb.body())?;

    let token_digest = raw_sha256(form.token.as_bytes().to_vec()).to_hex_string();
    let Some(signer) = st.esign_tokens.get(&token_digest).await? else {
        return Ok(Sendback::status(Code::Forbidden));
    };

    let body_tag = raw_sha256(inb.body().to_vec()).to_hex_string();
    let slot = format!("{}#{}#{}#{}", staff.org_id, staff.user_id, APPROVE_ROUTE, body_tag);
    if let Some(prev) = st.approvals.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }
    let approved = st.estimates.approve(&staff.org_id, &form.estimate_id, &signer, &form.signature_svg).await?;
    let out = serde_json::to_vec(&approved)?;
    st.approvals.put(&slot, out.clone()).await?;
    Ok(Sendback::raw_json(Code::Ok, out))
}
