//! Stored-value wallet top-ups (rider app, `POST /v1/wallets/{id}/topups`).
//!
//! The PSP call is slow and riders double-tap, so a retry is answered from
//! the replay bay instead of charging the card twice.

use std::time::Duration;

use hopper::bay::Bay;
use idem_scope::{Fingerprint, Problem};
use wharf::badge::Rider;
use wharf::codec::{Decode, Encode};
use wharf::{Answer, Code, Fault, Hail};

use crate::psp::{Charge, PspClient};

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";
const ROUTE: &str = "/v1/wallets/topups";
const REPLAY_TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Decode)]
pub struct TopUp {
    pub wallet_id: String,
    pub amount_minor: i64,
    pub currency: String,
}

#[derive(Encode, Decode)]
struct Stored {
    fingerprint: Vec<u8>,
    body: Vec<u8>,
}

#[derive(Encode)]
struct TopUpReceipt {
    wallet_id: String,
    balance_minor: i64,
    psp_reference: String,
}

pub struct TopUpApi {
    pub replays: Bay,
    pub balances: Bay,
    pub psp: PspClient,
}

impl TopUpApi {
    pub async fn create(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let Some(key) = hail.header(IDEMPOTENCY_HEADER) else {
            return Ok(Answer::problem(Problem::missing_key()));
        };
        let body: TopUp = hail.json()?;

        let parts = [rider.tenant_id.as_str(), rider.user_id.as_str(), ROUTE, key];
        let slot = parts.iter().fold(String::new(), |acc, p| acc + p + "\u{1f}");
        let fingerprint = Fingerprint::of(ROUTE, hail.body());

        if let Some(raw) = self.replays.get(&slot).await? {
            let prev: Stored = wharf::codec::from_slice(&raw)?;
            if prev.fingerprint.as_slice() != fingerprint.as_bytes() {
                return Ok(Answer::problem(Problem::mismatch(key)));
            }
            return Ok(Answer::replayed(prev.body));
        }

        tracing::info!(idempotency_key = %key, wallet = %body.wallet_id, "top-up accepted");

        let balance_key = format!("balance:{}:{}", rider.tenant_id, body.wallet_id);
        let charge = self
            .psp
            .charge(Charge {
                amount_minor: body.amount_minor,
                currency: body.currency.clone(),
                reference: body.wallet_id.clone(),
            })
            .await?;
        let balance = self.balances.incr_by(&balance_key, body.amount_minor).await?;

        let receipt = TopUpReceipt {
            wallet_id: body.wallet_id,
            balance_minor: balance,
            psp_reference: charge.reference,
        };
        let bytes = wharf::codec::to_vec(&receipt)?;
        let stored = Stored { fingerprint: fingerprint.as_bytes().to_vec(), body: bytes.clone() };
        self.replays.put_ttl(&slot, wharf::codec::to_vec(&stored)?, REPLAY_TTL).await?;
        Ok(Answer::bytes(Code::Created, bytes))
    }
}
