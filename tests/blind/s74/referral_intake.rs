//! Specialist referrals sent in by partner practices over the partner API.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Partner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Referrals {
    pub idem: Bunker,
    pub intake: crate::specialists::Intake,
}

#[derive(Deserialize)]
pub struct ReferralIn {
    pub patient_ref: String,
    pub specialty: String,
    pub history_url: String,
}

#[derive(Deserialize)]
pub struct WithdrawIn {
    pub referral_id: String,
}

fn partner_key(inb: &Inbound) -> Result<String, Fault> {
    inb.header("Idempotency-Key")
        .map(str::to_owned)
        .ok_or_else(|| Fault::problem(Problem::missing_key()))
}

pub async fn create_referral(
    inb: Inbound,
    partner: Partner,
    st: Shared<Referrals>,
    JsonIn(body): JsonIn<ReferralIn>,
) -> Result<Sendback, Fault> {
    let k = partner_key(&inb)?;
    // Partner practices share one integration key per account, so the
    // account is the caller here.
    let key = scoped(&partner.account_id, "global", "/v1/referrals", &k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let created = st.intake.open(&partner.account_id, &body.patient_ref, &body.specialty, &body.history_url).await?;
    let out = serde_json::to_vec(&created)?;
    st.idem.put(key.storage_key(), out.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, out))
}

pub async fn withdraw_referral(
    inb: Inbound,
    partner: Partner,
    st: Shared<Referrals>,
    JsonIn(body): JsonIn<WithdrawIn>,
) -> Result<Sendback, Fault> {
    let k = partner_key(&inb)?;
    let key = scoped(&partner.account_id, &partner.api_key_id, "/v1/referrals/withdraw", &k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    st.intake.withdraw(&partner.account_id, &body.referral_id).await?;
    st.idem.put(key.storage_key(), b"{}".to_vec()).await?;
    Ok(Sendback::status(Code::Ok))
}
